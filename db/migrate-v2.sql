-- kbench store, schema version 2 (from version 1): each monitor value says
-- what kind of figure it is, so that readers decide by kind, not by key.
--   delta     a count over the sample: a counter's change, or what the
--             sample's processes accumulated; totals over samples add up
--   max       a peak over the sample (rusage max-rss-bytes)
--   fraction  a ratio in [0, 1] (perf <event>:running, the share of the
--             sample a multiplexed event was counted)
--   before    a level read before the sample (slab Slab:before) or the
--             section (slabcache)
--   after     the same level read after it
ALTER TABLE monitor_values ADD COLUMN kind TEXT NOT NULL DEFAULT 'delta'
	CHECK (kind IN ('delta', 'max', 'fraction', 'before', 'after'));

-- Version 1 told kinds apart by key: give its rows the kind their key
-- stood for, so that they read as they did.
UPDATE monitor_values SET kind = CASE
	WHEN key = 'max-rss-bytes' THEN 'max'
	WHEN instr(key, ':running') > 0 THEN 'fraction'
	WHEN source = 'slab' AND key GLOB '*:before' THEN 'before'
	WHEN source = 'slab' AND key GLOB '*:after' THEN 'after'
	WHEN source = 'slabcache' AND row = 'after' THEN 'after'
	WHEN source = 'slabcache' THEN 'before'
	ELSE 'delta'
END
WHERE key = 'max-rss-bytes' OR instr(key, ':running') > 0
   OR source IN ('slab', 'slabcache');

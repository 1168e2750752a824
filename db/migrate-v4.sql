-- kbench store, schema version 4 (from version 3): the bundles that
-- kbench fleet collect has fetched into this store, so that a later
-- collect downloads and imports only what is new. One row a bundle file:
--   source        the results URL or directory collected from, as given
--                 but without credentials or a '/' at the end
--   path          the bundle under it, HOST/RUN-UUID.kbench
--   size_bytes    its size as listed (NULL: not given)
--   modified_at   its time as listed, ISO 8601 UTC (NULL: not given)
--   collected_at  when it was imported, ISO 8601 UTC
--   runs_added    the runs its import added (0: the store had them)
-- Bundles (kbench export) carry the table empty.
CREATE TABLE fleet_collected (
	id INTEGER PRIMARY KEY,
	source TEXT NOT NULL,
	path TEXT NOT NULL,
	size_bytes INTEGER,
	modified_at TEXT,
	collected_at TEXT NOT NULL,
	runs_added INTEGER NOT NULL DEFAULT 0,
	UNIQUE (source, path)
);

-- kbench store, schema version 3 (from version 2): a run names its writer
-- for sure. The pid alone is reused after the writer dies, and inside a
-- pid namespace it may be 1, alive forever on the host: so the boot the
-- run was written in and the start time of its process are stored beside
-- it, and a run still marked running reads as interrupted when the boot
-- id differs from the reader's or the process with that pid started at
-- another time.
--   boot_id          /proc/sys/kernel/random/boot_id of the writer
--   pid_start_ticks  field 22 of /proc/PID/stat of the writer: clock
--                    ticks after boot
-- Runs of older stores have NULL in both and keep the pid rule.
-- From this version on, a store also carries PRAGMA application_id
-- 0x6b62656e ("kben"), set by whoever creates or migrates it, so that a
-- kbench store is recognised for sure before anything is written to it.
ALTER TABLE runs ADD COLUMN boot_id TEXT;
ALTER TABLE runs ADD COLUMN pid_start_ticks INTEGER;

-- kbench store, schema version 11 (from version 10): the values an
-- experiment may write to each knob it journals (every arm's setting,
-- one a line, blanks folded; its original left out). A killed writer's
-- row is restored only while the knob still reads one of them: a knob
-- that reads anything else was set since, by an admin or another tool,
-- and is left as it is (said, and the row dropped). NULL in a row
-- journalled before this version: restored whatever the knob reads.
ALTER TABLE knob_journal ADD COLUMN written TEXT;

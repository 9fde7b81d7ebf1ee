-- An experiment for `PRE_SQL=… pnpm bench:floor` (or bench:split): no index of messages names status,
-- in its columns or its predicate (the open-reference index becomes a plain one, the index of due
-- schedules keys on scheduled_at alone), partitions at fillfactor 70, so status writes can be HOT.
DROP INDEX messages_account_status_created_idx;
DROP INDEX messages_provider_ref_open_idx;
DROP INDEX messages_due_scheduled_idx;
CREATE INDEX messages_provider_ref_idx2 ON messages (provider_id, provider_ref);
CREATE INDEX messages_due_scheduled_idx2 ON messages (scheduled_at) WHERE scheduled_at IS NOT NULL;
DO $$ DECLARE r record; BEGIN
  FOR r IN SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'messages'::regclass LOOP
    EXECUTE format('ALTER TABLE %I SET (fillfactor = 70)', r.relname);
  END LOOP; END $$;

-- An experiment for `PRE_SQL=… pnpm bench:floor`: no index of messages names status (the open-reference
-- index becomes a plain one), partitions at fillfactor 70, so the status writes can be HOT updates.
DROP INDEX messages_account_status_created_idx;
DROP INDEX messages_provider_ref_open_idx;
CREATE INDEX messages_provider_ref_idx2 ON messages (provider_id, provider_ref);
DO $$ DECLARE r record; BEGIN
  FOR r IN SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'messages'::regclass LOOP
    EXECUTE format('ALTER TABLE %I SET (fillfactor = 70)', r.relname);
  END LOOP; END $$;

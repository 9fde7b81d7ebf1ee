/**
 * 0930 — the live SMPP binds of every process (docs/smpp.md "Live binds"; SMPP range 0900–0999, the
 * people-facing part 0930–0939). Runs on PostgreSQL 15+ and PGlite.
 *
 * - `smpp_binds`: one row per bind up, written by the process holding its connection (`process_id`, a
 *   random id per SMPP listener) when it binds, refreshed by that process's heartbeat (every 5 s: the
 *   messages in flight, the submits of the last minute), deleted when it closes. A row whose heartbeat
 *   is older than 20 s belongs to a process that died: it is not listed, and purged.
 * - `unbind_requested_at`: an operator (admin API, console) or the customer (portal) asked to end the
 *   bind; `pg_notify('tuma_smpp_binds', <process_id>)` wakes the processes (delivered at COMMIT), the
 *   owner sends `unbind` to the ESME and closes. No foreign key to `smpp_accounts`: the process, not the
 *   database, knows which binds are up (deleting credentials asks their binds to unbind first).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
CREATE TABLE smpp_binds (
  id                   uuid PRIMARY KEY,
  smpp_account_id      uuid NOT NULL,
  account_id           uuid NOT NULL,
  system_id            text NOT NULL,
  bind_type            text NOT NULL CHECK (bind_type IN ('transmitter', 'receiver', 'transceiver')),
  remote_address       text NOT NULL,
  process_id           text NOT NULL,
  since                timestamptz NOT NULL,
  heartbeat_at         timestamptz NOT NULL,
  in_flight            integer NOT NULL DEFAULT 0,
  submits_last_minute  integer NOT NULL DEFAULT 0,
  unbind_requested_at  timestamptz
);
CREATE INDEX smpp_binds_process_idx ON smpp_binds (process_id);
CREATE INDEX smpp_binds_account_idx ON smpp_binds (account_id, since);
CREATE INDEX smpp_binds_credentials_idx ON smpp_binds (smpp_account_id);
`))

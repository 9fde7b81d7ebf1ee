/**
 * 0110 — fewer writes per dispatched message (measured with `pnpm bench:dispatch`, see
 * docs/delivery.md "Measurements").
 *
 * - `messages.provider_ref`: the normalised provider id (`normalizeRef`) of a single-part message.
 *   Such a message gets no `message_parts` row any more (one insert and one update fewer per
 *   message): its receipt is matched on `messages (provider_id, provider_ref)` and moves the message
 *   directly. Multi-part messages keep one `message_parts` row per part, as before, and their
 *   `provider_ref` stays NULL. Rows written before this migration keep matching through their parts.
 * - `messages_provider_ref_idx (provider_id, provider_message_id)` goes: no query reads it (ids are
 *   matched normalised), and every non-HOT update of `messages` paid for it. Its replacement indexes
 *   only messages that have a `provider_ref`.
 * - Foreign keys checked per row on the dispatch path go, as 0004 did for inserts: providers and
 *   messages are never deleted (providers are disabled), and the worker writes ids it has just read
 *   from those rows. `messages.provider_id`, `message_parts.message_id`, `message_parts.provider_id`.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
ALTER TABLE messages ADD COLUMN provider_ref text;
DROP INDEX IF EXISTS messages_provider_ref_idx;
CREATE INDEX messages_provider_ref_norm_idx ON messages (provider_id, provider_ref) WHERE provider_ref IS NOT NULL;
ALTER TABLE messages DROP CONSTRAINT IF EXISTS messages_provider_id_fkey;
ALTER TABLE message_parts DROP CONSTRAINT IF EXISTS message_parts_message_id_fkey;
ALTER TABLE message_parts DROP CONSTRAINT IF EXISTS message_parts_provider_id_fkey;
`))

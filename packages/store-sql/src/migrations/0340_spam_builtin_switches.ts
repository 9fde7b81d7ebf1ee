/**
 * 0340 — operators switch entries of the built-in spam phrase list off and on (issue 9, item 19).
 *
 * The list itself is code (`DEFAULT_BLOCKED_PHRASES`, or the embedding application's
 * `SendConfig.spamPolicy`); a row here overrides one entry, keyed by kind and phrase so a switch
 * survives a reordering of the list. The send snapshot reads the switched-off phrases with the
 * spam rules, in the same statement, so a switch takes effect on the next send of every process.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
CREATE TABLE spam_builtin_switches (
  kind        text NOT NULL,
  pattern     text NOT NULL,
  enabled     boolean NOT NULL,
  updated_at  timestamptz NOT NULL,
  PRIMARY KEY (kind, pattern)
);
`))

/**
 * SQL adapter of `MailOutbox` (migration 0810): the mails kept instead of sent when no mail server
 * is configured, newest first.
 */
import { SqlClient } from "@effect/sql"
import type { OutboxMail } from "@tuma/core/ports/Notifiers"
import { MailOutbox } from "@tuma/core/ports/Notifiers"
import { Effect, Layer, Schema } from "effect"
import { findAll, rowOf } from "./rows.js"

const OutboxRow = rowOf<OutboxMail>()(Schema.Struct({
  id: Schema.String,
  to: Schema.String,
  subject: Schema.String,
  text: Schema.String,
  created_at: Schema.DateFromSelf
}))
const outboxRows = findAll(OutboxRow)

/** The SQL `MailOutbox`. */
export const make = Effect.map(SqlClient.SqlClient, (sql) =>
  MailOutbox.of({
    put: (mail) =>
      sql`INSERT INTO mail_outbox ${
        sql.insert({
          id: mail.id,
          recipient: mail.to,
          subject: mail.subject,
          body: mail.text,
          created_at: mail.created_at
        })
      }`.pipe(Effect.asVoid, Effect.orDie),
    list: (limit) =>
      outboxRows(
        sql`SELECT id, recipient AS "to", subject, body AS text, created_at FROM mail_outbox
          ORDER BY created_at DESC, id LIMIT ${Math.max(1, Math.min(Math.floor(limit), 500))}`
      ).pipe(Effect.orDie)
  }))

/** `MailOutbox` over the `SqlClient`. */
export const layer = Layer.effect(MailOutbox, make)

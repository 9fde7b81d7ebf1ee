/**
 * The webhook pump's wake-ups (migration 0760, `SqlWebhookStore.layerWakeups`), on both drivers: a
 * message reaching a final state under a key with a webhook endpoint wakes the listener once its
 * transaction commits; one under a key without endpoints (a send load with no webhooks) sends nothing.
 */
import { SqlClient } from "@effect/sql"
import { expect } from "@effect/vitest"
import { WebhookWakeups } from "@tuma/core/ports/WebhookStore"
import { Context, Effect, Layer, Option } from "effect"
import { randomUUID } from "node:crypto"
import * as SqlWebhookStore from "../src/SqlWebhookStore.js"
import { forEachDriver } from "./harness.js"

forEachDriver((db) => db, (it) => {
  /** An account, a live key and (when asked) a webhook endpoint for it; a queued message under the key. */
  const fixture = (withEndpoint: boolean) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const account = randomUUID()
      const key = randomUUID()
      const message = randomUUID()
      yield* sql`INSERT INTO accounts (id, name, email, created_at, updated_at)
        VALUES (${account}, 'Hooks', ${`${account}@example.com`}, now(), now())`
      yield* sql`INSERT INTO api_keys (id, account_id, key_hash, prefix, mode, created_at)
        VALUES (${key}, ${account}, ${`hash-${key}`}, 'tuma_live_x', 'live', now())`
      if (withEndpoint) {
        yield* sql`INSERT INTO webhook_endpoints (id, account_id, api_key_id, url, secret, created_at, updated_at)
          VALUES (${randomUUID()}, ${account}, ${key}, 'http://127.0.0.1:9/hooks', 'secret', now(), now())`
      }
      yield* sql`INSERT INTO messages (id, account_id, api_key_id, market_id, country, recipient, sender_id, text,
          encoding, parts, units, channel, status, created_at, queued_at, updated_at)
        VALUES (${message}, ${account}, ${key}, ${randomUUID()}, 'TZ', '+255712345678', 'TUMA', 'hooks', 'GSM-7',
          1, 1, 'api', 'queued', now(), now(), now())`
      return message
    })
  const deliver = (message: string) =>
    Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql.withTransaction(
        sql`UPDATE messages SET status = 'delivered', delivered_at = now(), updated_at = now() WHERE id = ${message}`
      ))

  /** Whether the listener hears something within `ms` after `action` (the listener is in place first). */
  const heardAfter = <E, R>(action: Effect.Effect<unknown, E, R>, ms: number) =>
    Effect.scoped(Effect.gen(function*() {
      const wakeups = yield* Layer.build(SqlWebhookStore.layerWakeups).pipe(
        Effect.map((context) => Context.get(context, WebhookWakeups))
      )
      yield* Effect.sleep("300 millis") // the LISTEN is in place
      yield* action
      return Option.isSome(yield* Effect.timeout(wakeups.next, ms).pipe(Effect.option))
    }))

  it.live("a final state that creates a delivery wakes the pump", () =>
    Effect.gen(function*() {
      const message = yield* fixture(true)
      expect(yield* heardAfter(deliver(message), 3_000)).toBe(true)
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<
        { n: number }
      >`SELECT count(*)::int AS n FROM webhook_deliveries WHERE message_id = ${message}`
      expect(rows[0].n).toBe(1)
    }))

  it.live("a final state under a key without endpoints sends nothing", () =>
    Effect.gen(function*() {
      const message = yield* fixture(false)
      expect(yield* heardAfter(deliver(message), 700)).toBe(false)
    }))
})

/**
 * The change notifications reach a LISTEN on PostgreSQL (migration 0720): `@effect/sql-pg`'s `listen`
 * drops notifications with an empty payload, so the triggers must send one. Without it the settings
 * LISTEN and the delivery workers' LISTEN never fire and every process waits for its poll.
 * (PGlite: one process, `pglite.listen` in-process; nothing to test here.)
 */
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { expect } from "@effect/vitest"
import { Effect, Fiber, Option, Stream } from "effect"
import { forEachDriver } from "./harness.js"

forEachDriver((db) => db, (it, driver) => {
  const heard = (channel: string, change: (sql: SqlClient.SqlClient) => Effect.Effect<unknown, unknown>) =>
    Effect.gen(function*() {
      const pg = yield* Effect.orDie(Effect.serviceOptional(PgClient.PgClient))
      const sql = yield* SqlClient.SqlClient
      const first = yield* pg.listen(channel).pipe(Stream.take(1), Stream.runHead, Effect.fork)
      yield* Effect.sleep("300 millis") // the LISTEN is in place
      yield* Effect.orDie(change(sql))
      return yield* Fiber.join(first).pipe(Effect.timeout("3 seconds"), Effect.option, Effect.map(Option.flatten))
    })

  it.live.skipIf(driver !== "postgres")("a settings change is heard on tuma_settings", () =>
    Effect.gen(function*() {
      const got = yield* heard("tuma_settings", (sql) => sql`UPDATE markets SET open = open WHERE iso2 = 'TZ'`)
      expect(Option.isSome(got)).toBe(true)
    }))

  it.live.skipIf(driver !== "postgres")("a queued message is heard on tuma_dispatch", () =>
    Effect.gen(function*() {
      // the trigger fires per INSERT statement on dispatch_queue, even one that inserts nothing
      const got = yield* heard(
        "tuma_dispatch",
        (sql) =>
          sql`INSERT INTO dispatch_queue (message_id, account_id, available_at, created_at)
          SELECT id, account_id, now(), now() FROM messages WHERE false`
      )
      expect(Option.isSome(got)).toBe(true)
    }))
})

/**
 * Migration 0750: a message's account and campaign are checked once per statement, with the guarantee a
 * foreign key gives — a message never names a missing account or campaign (the whole statement is
 * refused, nothing of it stays), an account or campaign that messages name cannot be deleted or
 * re-keyed, and (PostgreSQL, two connections) a delete that races an insert waits for it and is then
 * refused, as with the `FOR KEY SHARE` lock of an RI check.
 */
import { SqlClient } from "@effect/sql"
import { expect } from "@effect/vitest"
import { Deferred, Effect, Fiber, Option } from "effect"
import { randomUUID } from "node:crypto"
import { forEachDriver } from "./harness.js"

/** The SQLSTATE of a failed statement (`foreign_key_violation` is 23503), or "ok". */
const outcome = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  self.pipe(
    Effect.as("ok"),
    Effect.catchAll((e) => {
      const cause = (e as { cause?: { code?: string } }).cause
      return Effect.succeed(cause?.code ?? String(e))
    })
  )

forEachDriver((db) => db, (it, driver) => {
  const account = Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const id = randomUUID()
    yield* sql`INSERT INTO accounts (id, name, email, created_at, updated_at)
      VALUES (${id}, 'Refs', ${`${id}@example.com`}, now(), now())`
    return id
  })
  const campaign = (accountId: string) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const id = randomUUID()
      yield* sql`INSERT INTO campaigns (id, account_id, api_version, name, sender_id, status, recipient_count,
          queued_count, failed_count, units, created_at, updated_at)
        VALUES (${id}, ${accountId}, 'v2', 'refs', 'TUMA', 'queued', 0, 0, 0, 0, now(), now())`
      return id
    })
  /** One statement inserting a message per (account, campaign) pair. */
  const insertMessages = (rows: ReadonlyArray<readonly [string, string | null]>) =>
    Effect.flatMap(
      SqlClient.SqlClient,
      (sql) =>
        sql`INSERT INTO messages (id, account_id, campaign_id, market_id, country, recipient, sender_id, text,
          encoding, parts, units, channel, status, created_at, queued_at, updated_at)
        SELECT gen_random_uuid(), u.a, u.c, gen_random_uuid(), 'TZ', '+255712345678', 'TUMA', 'refs', 'GSM-7',
          1, 1, 'api', 'queued', now(), now(), now()
        FROM unnest(${rows.map((r) => r[0])}::uuid[], ${rows.map((r) => r[1])}::uuid[]) AS u(a, c)`
    )
  const messagesOf = (accountId: string) =>
    Effect.flatMap(
      SqlClient.SqlClient,
      (sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM messages WHERE account_id = ${accountId}`
    ).pipe(Effect.map((r) => r[0].n))

  it.effect("messages naming existing accounts and campaigns are inserted, several of each in one statement", () =>
    Effect.gen(function*() {
      const a = yield* account
      const b = yield* account
      const c = yield* campaign(a)
      expect(yield* outcome(insertMessages([[a, c], [a, c], [b, null], [a, null]]))).toBe("ok")
      expect(yield* messagesOf(a)).toBe(3)
      expect(yield* messagesOf(b)).toBe(1)
    }))

  it.effect("a statement with one message naming a missing account or campaign is refused whole", () =>
    Effect.gen(function*() {
      const a = yield* account
      const c = yield* campaign(a)
      expect(yield* outcome(insertMessages([[a, null], [randomUUID(), null]]))).toBe("23503")
      expect(yield* outcome(insertMessages([[a, c], [a, randomUUID()]]))).toBe("23503")
      expect(yield* messagesOf(a)).toBe(0)
    }))

  it.effect("a message cannot be moved to a missing account or campaign", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const a = yield* account
      yield* insertMessages([[a, null]])
      expect(yield* outcome(sql`UPDATE messages SET account_id = ${randomUUID()} WHERE account_id = ${a}`)).toBe(
        "23503"
      )
      expect(yield* outcome(sql`UPDATE messages SET campaign_id = ${randomUUID()} WHERE account_id = ${a}`)).toBe(
        "23503"
      )
      const b = yield* account
      const c = yield* campaign(b)
      expect(yield* outcome(sql`UPDATE messages SET account_id = ${b}, campaign_id = ${c} WHERE account_id = ${a}`))
        .toBe("ok")
      expect(yield* messagesOf(b)).toBe(1)
    }))

  it.effect("an account or campaign that messages name cannot be deleted or re-keyed; one they don't name can", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const a = yield* account
      const c = yield* campaign(a)
      yield* insertMessages([[a, c]])
      expect(yield* outcome(sql`DELETE FROM campaigns WHERE id = ${c}`)).toBe("23503")
      expect(yield* outcome(sql`UPDATE campaigns SET id = ${randomUUID()} WHERE id = ${c}`)).toBe("23503")
      expect(yield* outcome(sql`DELETE FROM accounts WHERE id = ${a}`)).not.toBe("ok")
      expect(yield* outcome(sql`UPDATE accounts SET id = ${randomUUID()} WHERE id = ${a}`)).not.toBe("ok")
      // the guard, not another table's key: an account with a campaign but no message is refused by the
      // campaign's foreign key; one with nothing at all goes
      const lone = yield* account
      expect(yield* outcome(sql`UPDATE accounts SET name = 'renamed' WHERE id = ${lone}`)).toBe("ok")
      expect(yield* outcome(sql`DELETE FROM accounts WHERE id = ${lone}`)).toBe("ok")
      const b = yield* account
      const unused = yield* campaign(b)
      expect(yield* outcome(sql`DELETE FROM campaigns WHERE id = ${unused}`)).toBe("ok")
    }))

  it.effect("an account named only by messages is refused by the messages' guard", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const a = yield* account
      yield* insertMessages([[a, null]])
      const refused = yield* sql`DELETE FROM accounts WHERE id = ${a}`.pipe(Effect.flip)
      expect(String((refused as { cause?: unknown }).cause)).toContain(`violates the reference from "messages"`)
    }))

  it.live.runIf(driver === "postgres")(
    "a delete racing an insert waits for the insert's transaction, then is refused",
    () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const a = yield* account
        const inserted = yield* Deferred.make<void>()
        const commit = yield* Deferred.make<void>()
        const insert = yield* sql.withTransaction(
          Effect.gen(function*() {
            yield* insertMessages([[a, null]])
            yield* Deferred.succeed(inserted, undefined)
            yield* Deferred.await(commit)
          })
        ).pipe(Effect.fork)
        yield* Deferred.await(inserted)
        const remove = yield* outcome(sql`DELETE FROM accounts WHERE id = ${a}`).pipe(Effect.fork)
        yield* Effect.sleep("300 millis")
        // the insert's statement check holds the account FOR KEY SHARE: the delete waits
        expect(Option.isNone(yield* Fiber.poll(remove))).toBe(true)
        yield* Deferred.succeed(commit, undefined)
        yield* Fiber.join(insert)
        expect(yield* Fiber.join(remove)).toBe("23503")
        expect(yield* messagesOf(a)).toBe(1)
      })
  )
})

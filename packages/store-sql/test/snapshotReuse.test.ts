/**
 * The single send's reused snapshot (core `send/snapshotCache.ts`, issue 12) over the SQL store: sends
 * of one (account, sender ID, country) read the snapshot once per `snapshotReuseMillis`, and reuse never
 * changes an answer — a change that forbids a send holds for the very next send (accept's guard, in the
 * accept's transaction), a change that allows one holds at once (a refusal is decided on a fresh
 * snapshot). No `SettingsChanges` here: nothing drops the cache but the guard and the clock, as in a
 * process that has not heard of the change yet.
 */
import { SqlClient } from "@effect/sql"
import { expect } from "@effect/vitest"
import { Ids, Operator, Send, SendConfig, SendStore } from "@tuma/core"
import { Effect, Layer, TestClock } from "effect"
import * as SqlContentCounter from "../src/SqlContentCounter.js"
import * as SqlOperatorStore from "../src/SqlOperatorStore.js"
import * as SqlSendStore from "../src/SqlSendStore.js"
import { setupAccount, stateOf, tzNumbers, unique } from "./fixtures.js"
import { forEachDriver } from "./harness.js"
import { Probe } from "./probe.js"

/** How many snapshots the store has read. */
class Reads extends Effect.Service<Reads>()("test/SnapshotReads", { succeed: { count: 0 } as { count: number } }) {}

/** `SqlSendStore`, counting its snapshot reads. */
const countingStore = Layer.effect(
  SendStore,
  Effect.gen(function*() {
    const inner = yield* SendStore
    const reads = yield* Reads
    return SendStore.of({
      ...inner,
      snapshot: (r) => Effect.suspend(() => (reads.count++, inner.snapshot(r)))
    })
  })
).pipe(Layer.provide(SqlSendStore.layer))

const stack = (db: Layer.Layer<SqlClient.SqlClient>) =>
  Layer.mergeAll(Send.layer, Operator.layer).pipe(
    Layer.provideMerge(Layer.mergeAll(countingStore, SqlOperatorStore.layer, SqlContentCounter.layer)),
    Layer.provideMerge(Reads.Default),
    Layer.provideMerge(Ids.layer),
    Layer.provideMerge(Probe.sql),
    Layer.provideMerge(db)
  )

const NOW = Date.parse("2026-03-01T10:00:00Z")

const codeOf = <A, E extends { error_code: string }, R>(eff: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.flip(eff), (e) => e.error_code)

forEachDriver((db) => stack(db), (it) => {
  const body = () => unique("reuse ")

  /** `count` sends of one (account, sender ID, country) from a 100-unit wallet: snapshot reads, and the account's state. */
  const sendsOfOneKey = (count: number, firstNumber: number, concurrency: number | "unbounded") =>
    Effect.gen(function*() {
      yield* TestClock.setTime(NOW)
      const send = yield* Send
      const reads = yield* Reads
      const { account, caller } = yield* setupAccount({ balances: { TZ: 100 } })
      const before = reads.count
      yield* Effect.forEach(
        tzNumbers(count, firstNumber),
        (recipient) => send.single(caller, { recipient, sender_id: "TUMA", body: body() }),
        { concurrency, discard: true }
      )
      return { reads: reads.count - before, state: yield* stateOf(account.id) }
    })

  it.effect("twenty sends of one (account, sender ID, country) read the snapshot once", () =>
    Effect.gen(function*() {
      const { reads, state } = yield* sendsOfOneKey(20, 100, 1)
      expect(reads).toBe(1)
      expect(state).toMatchObject({ balance: 80, messages: 20, queued: 20 })
    }))

  it.effect("fifty concurrent sends on a cold cache read the snapshot once (the others wait for that read)", () =>
    Effect.gen(function*() {
      const { reads, state } = yield* sendsOfOneKey(50, 300, "unbounded")
      expect(reads).toBe(1)
      expect(state).toMatchObject({ balance: 50, messages: 50, queued: 50 })
    }))

  it.effect("after snapshotReuseMillis the snapshot is read again; 0 reads it on every send", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(NOW)
      const send = yield* Send
      const reads = yield* Reads
      const { caller } = yield* setupAccount({ balances: { TZ: 100 } })
      const [a, b, c, d] = tzNumbers(4, 200)
      yield* send.single(caller, { recipient: a, sender_id: "TUMA", body: body() })
      const before = reads.count
      yield* TestClock.adjust("999 millis")
      yield* send.single(caller, { recipient: b, sender_id: "TUMA", body: body() })
      expect(reads.count).toBe(before)
      yield* TestClock.adjust("2 millis")
      yield* send.single(caller, { recipient: c, sender_id: "TUMA", body: body() })
      expect(reads.count).toBe(before + 1)
      yield* send.single(caller, { recipient: d, sender_id: "TUMA", body: body() }).pipe(
        Effect.provideService(SendConfig, { ...SendConfig.defaultValue(), snapshotReuseMillis: 0 })
      )
      expect(reads.count).toBe(before + 2)
    }))

  it.effect("a suspension committed after the snapshot was read refuses the very next send; nothing charged", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(NOW)
      const send = yield* Send
      const op = yield* Operator
      const { account, caller } = yield* setupAccount({ balances: { TZ: 10 } })
      const [a, b] = tzNumbers(2, 350)
      yield* send.single(caller, { recipient: a, sender_id: "TUMA", body: body() })
      yield* op.setAccountActive(account.id, false)
      expect(yield* codeOf(send.single(caller, { recipient: b, sender_id: "TUMA", body: body() })))
        .toBe("ACCOUNT_INACTIVE")
      expect(yield* stateOf(account.id)).toMatchObject({ balance: 9, messages: 1 })
    }))

  it.effect("a closed market, and a sender ID suspended by another process, hold for the next send", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(NOW)
      const send = yield* Send
      const sql = yield* SqlClient.SqlClient
      const { account, caller } = yield* setupAccount({ balances: { TZ: 10 }, sender: "REUSE" })
      const [a, b, c] = tzNumbers(3, 300)
      yield* send.single(caller, { recipient: a, sender_id: "REUSE", body: body() })
      // as another process would: straight to the database, no notification heard here
      yield* sql`UPDATE sender_ids SET status = 'suspended' WHERE account_id = ${account.id}`
      expect(yield* codeOf(send.single(caller, { recipient: b, sender_id: "REUSE", body: body() })))
        .toBe("SENDER_ID_NOT_APPROVED")
      yield* sql`UPDATE sender_ids SET status = 'approved' WHERE account_id = ${account.id}`
      yield* sql`UPDATE markets SET open = false WHERE iso2 = 'TZ'`
      const closed = yield* Effect.ensuring(
        codeOf(send.single(caller, { recipient: c, sender_id: "REUSE", body: body() })),
        Effect.orDie(sql`UPDATE markets SET open = true WHERE iso2 = 'TZ'`)
      )
      expect(closed).toBe("COUNTRY_NOT_AVAILABLE")
      expect(yield* stateOf(account.id)).toMatchObject({ balance: 9, messages: 1 })
    }))

  it.effect("a recipient who opted out after the snapshot was read is refused with RECIPIENT_OPTED_OUT", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(NOW)
      const send = yield* Send
      const sql = yield* SqlClient.SqlClient
      const { account, caller } = yield* setupAccount({ balances: { TZ: 10 } })
      const [a, b] = tzNumbers(2, 400)
      yield* send.single(caller, { recipient: a, sender_id: "TUMA", body: body() })
      yield* sql`INSERT INTO opt_outs (account_id, recipient, reason, created_at)
        VALUES (${account.id}, ${b}, 'STOP', now())`
      expect(yield* codeOf(send.single(caller, { recipient: b, sender_id: "TUMA", body: body() })))
        .toBe("RECIPIENT_OPTED_OUT")
      expect(yield* stateOf(account.id)).toMatchObject({ balance: 9, messages: 1 })
    }))

  it.effect("a refusal on a reused snapshot is decided again: a sender ID approved after it works at once", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(NOW)
      const send = yield* Send
      const op = yield* Operator
      const { account, caller } = yield* setupAccount({ balances: { TZ: 10 } })
      const [a, b] = tzNumbers(2, 500)
      expect(yield* codeOf(send.single(caller, { recipient: a, sender_id: "LATER", body: body() })))
        .toBe("SENDER_ID_NOT_APPROVED")
      yield* op.grantSenderId({ accountId: account.id, senderId: "LATER", country: "TZ" })
      const out = yield* send.single(caller, { recipient: b, sender_id: "LATER", body: body() })
      expect(out.data.sender_id).toBe("LATER")
    }))

  it.effect("on a reused snapshot the wallet is decided by accept: an emptied wallet answers the exact shortfall", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(NOW)
      const send = yield* Send
      const sql = yield* SqlClient.SqlClient
      const { account, caller } = yield* setupAccount({ balances: { TZ: 5 } })
      const [a, b] = tzNumbers(2, 600)
      yield* send.single(caller, { recipient: a, sender_id: "TUMA", body: body() })
      // another process spends the rest (a balance change is not a settings change)
      yield* sql`UPDATE wallets SET balance = 0 WHERE account_id = ${account.id}`
      const e = yield* Effect.flip(send.single(caller, { recipient: b, sender_id: "TUMA", body: body() }))
      expect(e).toMatchObject({
        error_code: "INSUFFICIENT_BALANCE",
        message: "Insufficient balance: 1 units needed in TZ, 0 available.",
        shortfall: [{ country: "TZ", units_required: 1, units_available: 0 }]
      })
    }))

  it.effect("a sandbox send never reuses the snapshot: an opted-out recipient is refused while live sends reuse it", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(NOW)
      const send = yield* Send
      const op = yield* Operator
      const sql = yield* SqlClient.SqlClient
      const { account, caller } = yield* setupAccount({ balances: { TZ: 10 } })
      const test = yield* op.issueApiKey({ accountId: account.id, mode: "test" })
      const sandbox = { ...caller, apiKeyId: test.id, mode: "test" as const }
      const [a, b] = tzNumbers(2, 700)
      yield* send.single(sandbox, { recipient: a, sender_id: "TUMA", body: body() })
      yield* send.single(caller, { recipient: a, sender_id: "TUMA", body: body() })
      yield* sql`INSERT INTO opt_outs (account_id, recipient, reason, created_at)
        VALUES (${account.id}, ${b}, 'STOP', now())`
      expect(yield* codeOf(send.single(sandbox, { recipient: b, sender_id: "TUMA", body: body() })))
        .toBe("RECIPIENT_OPTED_OUT")
    }))
})

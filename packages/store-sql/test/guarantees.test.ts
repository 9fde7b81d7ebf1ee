/**
 * The guarantees of issue 3, each proven on PostgreSQL (when TUMA_TEST_DATABASE_URL is set), on
 * PGlite and on core's memory adapters: wallet never negative under concurrency, one message per
 * Idempotency-Key, no trace of a transaction that fails half-way, multi-country campaigns charge
 * every wallet. (The two failures injected with SQL triggers run on the SQL drivers only.)
 */
import { expect } from "@effect/vitest"
import { Ids, Operator, Send } from "@tuma/core"
import type { SendCaller } from "@tuma/core"
import { Effect, Exit, Fiber, Layer, Ref } from "effect"
import { KE1, setupAccount, stack, stateOf, TZ1, TZ2, tzNumbers } from "./fixtures.js"
import { forEachDriver, sqlClient } from "./harness.js"
import { Probe } from "./probe.js"

forEachDriver(stack, (it, driver) => {
  it.live(
    `1,000 concurrent single sends against a 500-unit wallet: exactly 500 accepted (${driver})`,
    () =>
      Effect.gen(function*() {
        const send = yield* Send
        const probe = yield* Probe
        const { account, caller } = yield* setupAccount({ balances: { TZ: 500 } })
        // watch the wallet while the sends run: it must never be seen below zero (polling once per
        // turn of the event loop, as any real watcher does: a loop of PGlite reads with only microtask
        // yields between them would starve timers and I/O, and with them the PGlite group commit's
        // wait for the check phase — see SqlSendStore's `linger`)
        const lowest = yield* Ref.make(Number.POSITIVE_INFINITY)
        const watcher = yield* Effect.fork(Effect.forever(
          probe.walletBalances(account.id).pipe(
            Effect.flatMap((balances) => Ref.update(lowest, (l) => Math.min(l, ...balances))),
            Effect.zipLeft(Effect.sleep(0))
          )
        ))
        const results = yield* Effect.forEach(
          tzNumbers(1000),
          // one text per recipient: the duplicate-content limit (decisions §7) is not what this tests
          (recipient) =>
            Effect.either(send.single(caller, { recipient, sender_id: "TUMA", body: `Flash sale for ${recipient}!` })),
          { concurrency: "unbounded" }
        )
        yield* Fiber.interrupt(watcher)
        const accepted = results.filter((r) => r._tag === "Right").length
        const refused = results.filter((r) => r._tag === "Left").map((r) => r._tag === "Left" && r.left.error_code)
        expect(accepted).toBe(500)
        expect(new Set(refused)).toEqual(new Set(["INSUFFICIENT_BALANCE"]))
        const st = yield* stateOf(account.id)
        expect(st).toMatchObject({ balance: 0, ledger: 0, messages: 500, queued: 500, negative: 0 })
        expect(yield* Ref.get(lowest)).toBeGreaterThanOrEqual(0)
        expect((yield* probe.debits(account.id)).length).toBe(500)
      }),
    { timeout: 120_000 }
  )

  it.live("concurrent single sends (grouped in one transaction): each ledger row's balance_after is one step down", () =>
    Effect.gen(function*() {
      const send = yield* Send
      const probe = yield* Probe
      const { account, caller } = yield* setupAccount({ balances: { TZ: 100 } })
      yield* Effect.forEach(
        tzNumbers(30, 7_000),
        (recipient) => send.single(caller, { recipient, sender_id: "TUMA", body: `Ledger walk ${recipient}` }),
        { concurrency: "unbounded" }
      )
      const debits = yield* probe.debits(account.id)
      expect(debits.map((d) => d.balance_after).sort((x, y) => x - y)).toEqual(
        Array.from({ length: 30 }, (_, i) => 70 + i)
      )
      expect(yield* probe.ledgerMismatches(account.id)).toBe(0)
    }))

  it.live("50 concurrent requests, one Idempotency-Key, one body: one message and 50 identical answers", () =>
    Effect.gen(function*() {
      const send = yield* Send
      const { account, caller } = yield* setupAccount({ balances: { TZ: 100 } })
      const keyed: SendCaller = { ...caller, idempotencyKey: crypto.randomUUID() }
      const results = yield* Effect.forEach(
        Array.from({ length: 50 }),
        () => send.single(keyed, { recipient: TZ1, sender_id: "TUMA", body: "Your OTP is 4321" }),
        { concurrency: "unbounded" }
      )
      expect(new Set(results.map((r) => JSON.stringify(r.data))).size).toBe(1)
      expect(results.filter((r) => !r.idempotent_replay).length).toBe(1)
      expect(yield* stateOf(account.id)).toMatchObject({
        messages: 1,
        queued: 1,
        balance: 99,
        ledger: 99,
        idempotency: 1
      })
    }))

  it.live("50 concurrent requests, one Idempotency-Key, different bodies: one accepted, 49 IDEMPOTENCY_KEY_REUSED", () =>
    Effect.gen(function*() {
      const send = yield* Send
      const { account, caller } = yield* setupAccount({ balances: { TZ: 100 } })
      const keyed: SendCaller = { ...caller, idempotencyKey: crypto.randomUUID() }
      const results = yield* Effect.forEach(
        Array.from({ length: 50 }, (_, i) => i),
        (i) => Effect.either(send.single(keyed, { recipient: TZ1, sender_id: "TUMA", body: `Message number ${i}` })),
        { concurrency: "unbounded" }
      )
      const ok = results.filter((r) => r._tag === "Right")
      const codes = results.flatMap((r) => r._tag === "Left" ? [r.left.error_code] : [])
      expect(ok.length).toBe(1)
      expect(codes).toEqual(Array(49).fill("IDEMPOTENCY_KEY_REUSED"))
      expect(yield* stateOf(account.id)).toMatchObject({ messages: 1, balance: 99, ledger: 99, idempotency: 1 })
    }))

  it.live("concurrent bulk v2 with one Idempotency-Key: one campaign, every answer the same", () =>
    Effect.gen(function*() {
      const send = yield* Send
      const { account, caller } = yield* setupAccount({ balances: { TZ: 1000 } })
      const keyed: SendCaller = { ...caller, idempotencyKey: crypto.randomUUID() }
      const request = {
        recipients: tzNumbers(20).map((to, i) => ({ to, n: i })),
        message: "Ticket {n}",
        sender_id: "TUMA"
      }
      const results = yield* Effect.forEach(Array.from({ length: 10 }), () => send.bulkV2(keyed, request), {
        concurrency: "unbounded"
      })
      expect(new Set(results.map((r) => JSON.stringify(r.data))).size).toBe(1)
      expect(yield* stateOf(account.id)).toMatchObject({ campaigns: 1, messages: 20, balance: 980, ledger: 980 })
    }))

  it.live("a transaction failing half-way (duplicate message id) leaves no trace", () =>
    Effect.gen(function*() {
      const { account, caller } = yield* setupAccount({ balances: { TZ: 10 } })
      const before = yield* stateOf(account.id)
      // an Ids service that hands out the same id twice: the messages INSERT fails mid-transaction
      const sameId = Layer.succeed(Ids, {
        uuidV4: Effect.succeed("11111111-1111-4111-8111-111111111111"),
        uuidV7: Effect.succeed("11111111-1111-4111-8111-111111111111"),
        uuidV7Batch: (n) => Effect.succeed(Array(n).fill("11111111-1111-4111-8111-111111111111"))
      })
      const broken = yield* Effect.provide(Send, Send.layer.pipe(Layer.provide(sameId)))
      const keyed: SendCaller = { ...caller, idempotencyKey: crypto.randomUUID() }
      const exit = yield* Effect.exit(
        broken.bulkV1(keyed, { recipients: [TZ1, TZ2], sender_id: "TUMA", message: "Hello" })
      )
      expect(Exit.isFailure(exit) && Exit.causeOption(exit)._tag === "Some").toBe(true)
      expect(Exit.isFailure(exit) && exit.cause._tag).toBe("Die")
      expect(yield* stateOf(account.id)).toEqual(before)
      // the key was not consumed: the same request now goes through
      const ok = yield* Effect.flatMap(Send, (s) =>
        s.bulkV1(keyed, { recipients: [TZ1, TZ2], sender_id: "TUMA", message: "Hello" }))
      expect(ok.idempotent_replay).toBe(false)
      expect(yield* stateOf(account.id)).toMatchObject({
        balance: 8,
        ledger: 8,
        messages: 2,
        campaigns: 1,
        idempotency: 1
      })
    }))

  /** Runs `eff` with a trigger `timing` on `table` raising for this account's rows, then drops it. */
  const withFailingTrigger = <A, E, R>(
    accountId: string,
    table: string,
    timing: "dispatch" | "commit",
    eff: Effect.Effect<A, E, R>
  ) =>
    Effect.gen(function*() {
      const sql = yield* sqlClient
      const fn = `fail_${timing}_${accountId.replace(/-/g, "")}`
      yield* sql.unsafe(`CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF NEW.account_id = '${accountId}' THEN RAISE EXCEPTION 'injected failure'; END IF;
          RETURN NEW;
        END $$`)
      yield* sql.unsafe(
        timing === "commit"
          // a deferred constraint trigger fires at COMMIT: after the debit and every other write
          ? `CREATE CONSTRAINT TRIGGER ${fn} AFTER INSERT ON ${table} DEFERRABLE INITIALLY DEFERRED
             FOR EACH ROW EXECUTE FUNCTION ${fn}()`
          : `CREATE TRIGGER ${fn} BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION ${fn}()`
      )
      return yield* Effect.ensuring(
        eff,
        Effect.orDie(Effect.zipRight(
          sql.unsafe(`DROP TRIGGER ${fn} ON ${table}`),
          sql.unsafe(`DROP FUNCTION ${fn}()`)
        ))
      )
    })

  // failures injected with SQL triggers, on the SQL drivers only: the memory adapter has no statement
  // that can fail half-way (it checks every refusal before its first write: the duplicate-id test)
  const liveOnSql = it.live.skipIf(driver === "memory")

  liveOnSql("a transaction failing at the dispatch-queue insert leaves no trace", () =>
    Effect.gen(function*() {
      const send = yield* Send
      const { account, caller } = yield* setupAccount({ balances: { TZ: 10 } })
      const before = yield* stateOf(account.id)
      const keyed: SendCaller = { ...caller, idempotencyKey: crypto.randomUUID() }
      const exit = yield* withFailingTrigger(
        account.id,
        "dispatch_queue",
        "dispatch",
        Effect.exit(send.single(keyed, { recipient: TZ1, sender_id: "TUMA", body: "Hello" }))
      )
      expect(Exit.isFailure(exit) && exit.cause._tag).toBe("Die")
      expect(yield* stateOf(account.id)).toEqual(before)
    }))

  liveOnSql("a failure injected after the debit (at COMMIT) leaves no trace", () =>
    Effect.gen(function*() {
      const send = yield* Send
      const { account, caller } = yield* setupAccount({ balances: { TZ: 10 } })
      const before = yield* stateOf(account.id)
      const keyed: SendCaller = { ...caller, idempotencyKey: crypto.randomUUID() }
      const request = { recipients: [TZ1, TZ2], message: "Hello {name}", sender_id: "TUMA" }
      const exit = yield* withFailingTrigger(
        account.id,
        "wallet_ledger",
        "commit",
        Effect.exit(send.bulkV2(keyed, request))
      )
      expect(Exit.isFailure(exit) && exit.cause._tag).toBe("Die")
      expect(yield* stateOf(account.id)).toEqual(before)
      // nothing half-done blocks the retry with the same key
      const ok = yield* send.bulkV2(keyed, request)
      expect(ok.idempotent_replay).toBe(false)
      expect(yield* stateOf(account.id)).toMatchObject({ balance: 8, ledger: 8, messages: 2, campaigns: 1, queued: 2 })
    }))

  it.live("a bulk v2 campaign spanning two countries charges each country's wallet", () =>
    Effect.gen(function*() {
      const send = yield* Send
      const op = yield* Operator
      yield* op.setMarketOpen("KE", true)
      const { account, caller } = yield* setupAccount({ balances: { TZ: 10, KE: 10 } })
      const out = yield* send.bulkV2(caller, {
        recipients: [{ to: TZ1, name: "Asha" }, { to: KE1, name: "Wanjiru" }, { to: TZ2, name: "Juma" }],
        message: "Hello {name} 🙂 — welcome",
        sender_id: "TUMA"
      })
      yield* op.setMarketOpen("KE", false)
      expect(out.data.charges).toEqual([{ country: "KE", units: 1 }, { country: "TZ", units: 2 }])
      const st = yield* stateOf(account.id)
      expect(st).toMatchObject({ wallets: { TZ: 8, KE: 9 }, balance: 17, ledger: 17, messages: 3 })
      const ledger = yield* Effect.flatMap(Probe, (probe) => probe.debits(account.id))
      expect(ledger).toEqual([
        { iso2: "KE", units: -1, campaign_id: out.data.uid, balance_after: 9 },
        { iso2: "TZ", units: -2, campaign_id: out.data.uid, balance_after: 8 }
      ])
    }))
}, { maxConnections: 20 })

/**
 * Contract suite of the `AuditStore` port and the `Audit` service (issue 15) on PGlite, on
 * PostgreSQL when TUMA_TEST_DATABASE_URL is set, and on core's memory adapters: entries round-trip,
 * newest first, every filter and the cursor; `Audit.record` takes the `Actor` and the `Clock` and
 * never keeps a secret; a malformed search is a 422 by field; a change and its entry commit or roll
 * back together; and the table is append-only (UPDATE, DELETE and TRUNCATE refused by the database).
 */
import { expect } from "@effect/vitest"
import type { AuditEntry, AuditStore as AuditStoreTag } from "@tuma/core"
import { Actor, Audit, AuditStore, Memory } from "@tuma/core"
import { Effect, Either, Layer, TestClock } from "effect"
import * as SqlAuditStore from "../src/SqlAuditStore.js"
import type { DriverLayers } from "./harness.js"
import { forEachDriver, sqlClient } from "./harness.js"
import { unique } from "./operatorFixtures.js"

const stack: DriverLayers<Audit | AuditStoreTag> = {
  sql: (db) => Audit.layer.pipe(Layer.provideMerge(SqlAuditStore.layer), Layer.provideMerge(db)),
  memory: () => Audit.layer.pipe(Layer.provideMerge(Memory.layerMemory))
}

const errorsOf = (e: unknown) => Object.keys((e as { errors?: Record<string, unknown> }).errors ?? {}).sort()

/** An entry by a fresh actor (so tests sharing a database see only their own entries). */
const input = (actor: string, action: string, at: Date, extra: Partial<AuditEntry> = {}) => ({
  at,
  actor_kind: "operator" as const,
  actor_id: null,
  actor_name: actor,
  ip: "192.0.2.7",
  action,
  target: null,
  before: null,
  after: null,
  ...extra
})

forEachDriver(stack, (it, driver) => {
  it.effect("append answers the stored entry; search answers it newest first, as stored", () =>
    Effect.gen(function*() {
      const store = yield* AuditStore
      const actor = unique("ops@")
      const at = new Date("2026-01-02T03:04:05.678Z")
      const first = yield* store.append(input(actor, "wallet.top_up", at, {
        actor_id: "7f0c4a4e-0000-4000-8000-000000000001",
        target: "account:a1",
        before: { balance: 0, nested: { list: [1, "two", null] } },
        after: { balance: 500, reference: "INV-1" }
      }))
      const second = yield* store.append(input(actor, "account.suspend", new Date(at.getTime() + 1000), {
        ip: null
      }))
      expect(first).toEqual({
        id: first.id,
        at,
        actor_kind: "operator",
        actor_id: "7f0c4a4e-0000-4000-8000-000000000001",
        actor_name: actor,
        ip: "192.0.2.7",
        action: "wallet.top_up",
        target: "account:a1",
        before: { balance: 0, nested: { list: [1, "two", null] } },
        after: { balance: 500, reference: "INV-1" }
      })
      expect(first.id).toMatch(/^[1-9]\d*$/)
      expect(BigInt(second.id)).toBeGreaterThan(BigInt(first.id))
      const found = yield* store.search({ actor, limit: 10 })
      expect(found).toEqual([second, first])
    }))

  it.effect("search: by actor name or id, action (exact or prefix), target, time range, limit, cursor", () =>
    Effect.gen(function*() {
      const store = yield* AuditStore
      const actor = unique("filter@")
      const t0 = new Date("2026-03-01T00:00:00.000Z")
      const at = (s: number) => new Date(t0.getTime() + s * 1000)
      const e1 = yield* store.append(input(actor, "sender_id.approve", at(0), { target: "sender_id:s1" }))
      const e2 = yield* store.append(input(actor, "sender_id.reject", at(1), { target: "sender_id:s2" }))
      const e3 = yield* store.append(input(actor, "sender_idx.other", at(2), { target: "sender_id:s1" }))
      const e4 = yield* store.append(input(actor, "wallet.top_up", at(3), { actor_id: `${actor}-id` }))
      const ids = (rows: ReadonlyArray<AuditEntry>) => rows.map((r) => r.id)
      const search = (f: Omit<Parameters<AuditStore["Type"]["search"]>[0], "actor"> = {}) =>
        Effect.map(store.search({ actor, limit: 100, ...f }), ids)

      expect(yield* search()).toEqual(ids([e4, e3, e2, e1]))
      expect(ids(yield* store.search({ actor: `${actor}-id` }))).toEqual([e4.id])
      expect(yield* search({ action: "sender_id.approve" })).toEqual([e1.id])
      // a prefix ends in "." or ".*" and does not match a longer word ("sender_idx")
      expect(yield* search({ action: "sender_id.*" })).toEqual(ids([e2, e1]))
      expect(yield* search({ action: "sender_id." })).toEqual(ids([e2, e1]))
      expect(yield* search({ action: "sender_id" })).toEqual([])
      expect(yield* search({ target: "sender_id:s1" })).toEqual(ids([e3, e1]))
      // from is inclusive, to exclusive
      expect(yield* search({ from: at(1), to: at(3) })).toEqual(ids([e3, e2]))
      expect(yield* search({ limit: 2 })).toEqual(ids([e4, e3]))
      expect(yield* search({ limit: 2, before: e3.id })).toEqual(ids([e2, e1]))
      expect(yield* search({ limit: 2, before: e1.id })).toEqual([])
      expect(ids(yield* store.search({ actor: unique("nobody@") }))).toEqual([])
    }))

  it.effect("Audit.record: the current Actor, the Clock, and no secret ever stored", () =>
    Effect.gen(function*() {
      const audit = yield* Audit
      yield* TestClock.setTime(Date.parse("2026-05-06T07:08:09.000Z"))
      const system = yield* audit.record("market.open", "market:TZ", { open: false }, { open: true })
      expect(system).toMatchObject({
        at: new Date("2026-05-06T07:08:09.000Z"),
        actor_kind: "system",
        actor_id: null,
        actor_name: "system",
        ip: null
      })
      const name = unique("reviewer@")
      const entry = yield* audit.record(
        "provider.update",
        "provider:p1",
        { config: { host: "smsc", port: 2775, system_id: "tuma", password: "old-secret" } },
        {
          config: { host: "smsc", port: 2776, system_id: "tuma", password: "new-secret", smpp_password: "x" },
          key: "tuma_live_abcdef",
          secret: "whsec",
          token: null,
          at: new Date("2026-05-06T00:00:00.000Z")
        }
      ).pipe(Effect.provideService(Actor, { kind: "operator", operatorId: "op-1", name, ip: "203.0.113.9" }))
      expect(entry).toMatchObject({ actor_kind: "operator", actor_id: "op-1", actor_name: name, ip: "203.0.113.9" })
      const [stored] = yield* audit.search({ actor: name })
      expect(stored.before).toEqual({ config: { host: "smsc", port: 2775, system_id: "tuma", password: "***" } })
      expect(stored.after).toEqual({
        config: { host: "smsc", port: 2776, system_id: "tuma", password: "***", smpp_password: "***" },
        key: "***",
        secret: "***",
        token: null,
        at: "2026-05-06T00:00:00.000Z"
      })
      expect(JSON.stringify(stored)).not.toMatch(/new-secret|old-secret|tuma_live_abcdef|whsec/)
    }))

  it.effect("Audit.search: a malformed filter is a 422 by field; text from a query string is taken", () =>
    Effect.gen(function*() {
      const audit = yield* Audit
      const bad = yield* Effect.flip(audit.search({
        from: "yesterday",
        to: "2026-13-45",
        limit: "0",
        before: "abc",
        action: "DROP TABLE"
      }))
      expect(bad._tag).toBe("ValidationFailed")
      expect(errorsOf(bad)).toEqual(["action", "before", "from", "limit", "to"])
      expect(errorsOf(yield* Effect.flip(audit.search({ limit: 501 })))).toEqual(["limit"])
      expect(errorsOf(yield* Effect.flip(audit.search({ limit: "2.5" })))).toEqual(["limit"])
      expect(errorsOf(yield* Effect.flip(audit.search({ from: "2026-02-01", to: "2026-01-01" })))).toEqual(["to"])
      expect(errorsOf(yield* Effect.flip(audit.search({ actor: "x".repeat(400) })))).toEqual(["actor"])

      yield* TestClock.setTime(Date.parse("2026-05-06T07:08:09.000Z"))
      const name = unique("cli:")
      const actor = { kind: "cli" as const, operatorId: null, name, ip: null }
      for (let i = 0; i < 3; i++) {
        yield* audit.record("spam_rule.add", `spam_rule:${i}`, null, { i }).pipe(Effect.provideService(Actor, actor))
      }
      const page = yield* audit.search({ actor: name, limit: "2", from: "2000-01-01", to: "2999-01-01T00:00:00Z" })
      expect(page.map((e) => e.target)).toEqual(["spam_rule:2", "spam_rule:1"])
      const next = yield* audit.search({ actor: name, limit: "2", before: page[1].id })
      expect(next.map((e) => e.target)).toEqual(["spam_rule:0"])
    }))

  it.effect("Audit.audited: a failed change records nothing; a change that succeeds records once", () =>
    Effect.gen(function*() {
      const audit = yield* Audit
      const name = unique("atomic@")
      const actor = { kind: "operator" as const, operatorId: null, name, ip: null }
      const failed = yield* Effect.either(
        audit.audited("account.suspend", Effect.fail("refused" as const)).pipe(Effect.provideService(Actor, actor))
      )
      expect(failed).toEqual(Either.left("refused"))
      const value = yield* audit.audited(
        "account.suspend",
        Effect.succeed({ value: 42, target: "account:x", before: { active: true }, after: { active: false } })
      ).pipe(Effect.provideService(Actor, actor))
      expect(value).toBe(42)
      const rows = yield* audit.search({ actor: name })
      expect(rows.map((r) => [r.action, r.target, r.before, r.after])).toEqual([
        ["account.suspend", "account:x", { active: true }, { active: false }]
      ])
    }))

  // the memory store has no transaction to roll back (each memory operation is its own critical
  // section and `audited` records last); the SQL store rolls the entry back with the change
  it.effect.skipIf(driver === "memory")(
    "SQL: an entry appended in a transaction that fails is rolled back",
    () =>
      Effect.gen(function*() {
        const audit = yield* Audit
        const name = unique("rollback@")
        const actor = { kind: "operator" as const, operatorId: null, name, ip: null }
        const failed = yield* Effect.either(
          audit.atomically(
            Effect.zipRight(audit.record("provider.create", "provider:p", null, { name: "x" }), Effect.fail("boom"))
          ).pipe(Effect.provideService(Actor, actor))
        )
        expect(Either.isLeft(failed)).toBe(true)
        expect(yield* audit.search({ actor: name })).toEqual([])
      })
  )

  it.effect.skipIf(driver === "memory")(
    "SQL: audit_log is append-only — UPDATE, DELETE, TRUNCATE refused",
    () =>
      Effect.gen(function*() {
        const audit = yield* Audit
        const sql = yield* sqlClient
        const name = unique("immutable@")
        const entry = yield* audit.record("market.close", "market:KE", { open: true }, { open: false }).pipe(
          Effect.provideService(Actor, { kind: "admin-token", operatorId: null, name, ip: "198.51.100.1" })
        )
        const refused = (statement: Effect.Effect<unknown, unknown>) =>
          Effect.map(Effect.flip(statement), (e) => String((e as { cause?: unknown }).cause ?? e))
        expect(yield* refused(sql`UPDATE audit_log SET actor_name = 'someone else' WHERE id = ${entry.id}::bigint`))
          .toMatch(/append-only: UPDATE/)
        expect(yield* refused(sql`DELETE FROM audit_log WHERE id = ${entry.id}::bigint`)).toMatch(/append-only: DELETE/)
        expect(yield* refused(sql`DELETE FROM audit_log`)).toMatch(/append-only: DELETE/)
        expect(yield* refused(sql`TRUNCATE audit_log`)).toMatch(/append-only: TRUNCATE/)
        const [after] = yield* audit.search({ actor: name })
        expect(after).toEqual(entry)
      })
  )
})

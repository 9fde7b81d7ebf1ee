/**
 * Contract suite of API keys (spec §5, decisions §1–2): issuing (shown once, hash stored), the
 * `ApiKeys` port's lookup (`SqlApiKeys`), revocation, expiry, scopes, allowed IPs and last-use
 * tracking that writes at most once a minute per key. PGlite always, PostgreSQL when configured
 * (the look-up has no memory adapter: only the HTTP middleware uses it).
 */
import { SqlClient } from "@effect/sql"
import { expect } from "@effect/vitest"
import { Admin, generateApiKey, isIpOrCidr } from "@tuma/core"
import { ApiKeys, hashApiKey } from "@tuma/core/ports/ApiKeys"
import { Effect, Layer, Option, TestClock } from "effect"
import * as SqlApiKeys from "../src/SqlApiKeys.js"
import type { SqlLayerFor } from "./harness.js"
import { forEachDriver, sqlClient } from "./harness.js"
import type { OperatorStack } from "./operatorFixtures.js"
import { newAccount, operatorStack } from "./operatorFixtures.js"

const T0 = Date.parse("2026-05-01T08:00:00Z")

/** Every stored column of the account's API keys. */
const apiKeyRows = (accountId: string) =>
  Effect.flatMap(
    sqlClient,
    (sql) => Effect.orDie(sql<Record<string, unknown>>`SELECT * FROM api_keys WHERE account_id = ${accountId}`)
  )

const lastUsedAt = (keyId: string) =>
  Effect.flatMap(sqlClient, (sql) =>
    Effect.orDie(Effect.map(
      sql<{ last_used_at: Date | null }>`SELECT last_used_at FROM api_keys WHERE id = ${keyId}`,
      (rows) => rows[0].last_used_at?.toISOString() ?? null
    )))

/** A new `ApiKeys` look-up over the same store, as another server process would have. */
const apiKeysProcess = Effect.flatMap(
  sqlClient,
  (sql) => Effect.provideService(SqlApiKeys.make(), SqlClient.SqlClient, sql)
)

/** The operator-side services and the `ApiKeys` look-up over one database (the same `db` layer: one instance). */
const withApiKeys: SqlLayerFor<OperatorStack | ApiKeys> = (db, driver) =>
  Layer.merge(operatorStack.sql(db, driver), SqlApiKeys.layer.pipe(Layer.provide(db)))

forEachDriver(withApiKeys, (it) => {
  it.effect("issue: tuma_live_/tuma_test_ + 40 base62, shown once; only the SHA-256 is stored", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const admin = yield* Admin
      const keys = yield* ApiKeys
      const account = yield* newAccount()
      const live = yield* admin.issueApiKey({ account_uid: account.uid, name: "backend" })
      const test = yield* admin.issueApiKey({ account_uid: account.uid, mode: "test", scopes: ["sms:read"] })
      expect(live.key).toMatch(/^tuma_live_[A-Za-z0-9]{40}$/)
      expect(test.key).toMatch(/^tuma_test_[A-Za-z0-9]{40}$/)
      expect(live.api_key).toMatchObject({
        account_uid: account.uid,
        name: "backend",
        mode: "live",
        status: "active",
        scopes: ["sms:read", "sms:send", "sender-ids:read", "sender-ids:write", "profile:read", "sms:inbound"],
        allowed_ips: [],
        expires_at: null,
        revoked_at: null,
        last_used_at: null,
        prefix: live.key.slice(0, 14)
      })
      const rows = yield* apiKeyRows(account.uid)
      expect(rows.length).toBe(2)
      const everything = JSON.stringify(rows)
      expect(everything).not.toContain(live.key)
      expect(everything).not.toContain(test.key)
      expect(rows.map((r) => r.key_hash).sort()).toEqual([hashApiKey(live.key), hashApiKey(test.key)].sort())
      // listings never carry the key
      expect(JSON.stringify(yield* admin.listApiKeys(account.uid))).not.toContain(live.key.slice(14))

      const found = yield* keys.findByHash(hashApiKey(test.key))
      expect(Option.getOrThrow(found)).toEqual({
        id: test.api_key.uid,
        accountId: account.uid,
        mode: "test",
        scopes: ["sms:read"],
        allowedIps: [],
        expiresAt: null,
        revokedAt: null,
        accountActive: true
      })
      expect(yield* keys.findByHash(hashApiKey(generateApiKey("live")))).toEqual(Option.none())
      // 1,000 keys, no repeats, unbiased alphabet use
      const many = new Set(Array.from({ length: 1000 }, () => generateApiKey("live")))
      expect(many.size).toBe(1000)
    }))

  it.effect("revoke: the lookup shows it revoked (the first revocation time is kept); unknown key → 404", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const admin = yield* Admin
      const keys = yield* ApiKeys
      const account = yield* newAccount()
      const issued = yield* admin.issueApiKey({ account_uid: account.uid })
      const revoked = yield* admin.revokeApiKey(issued.api_key.uid)
      expect(revoked.status).toBe("revoked")
      expect(revoked.revoked_at).toBe(new Date(T0).toISOString())
      yield* TestClock.adjust("1 hour")
      expect((yield* admin.revokeApiKey(issued.api_key.uid)).revoked_at).toBe(new Date(T0).toISOString())
      const record = Option.getOrThrow(yield* keys.findByHash(hashApiKey(issued.key)))
      expect(record.revokedAt?.getTime()).toBe(T0)
      const missing = yield* Effect.flip(admin.revokeApiKey("5f0e6c9e-0000-4000-8000-000000000000"))
      expect(missing._tag).toBe("ResourceNotFound")
      expect((yield* Effect.flip(admin.revokeApiKey("garbage")))._tag).toBe("ResourceNotFound")
    }))

  it.effect("expiry: must be in the future when issued; the lookup carries it; status turns expired", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const admin = yield* Admin
      const keys = yield* ApiKeys
      const account = yield* newAccount()
      const past = yield* Effect.flip(
        admin.issueApiKey({ account_uid: account.uid, expires_at: "2026-04-30T00:00:00Z" })
      )
      expect(past._tag).toBe("ValidationFailed")
      expect(Object.keys((past as any).errors)).toEqual(["expires_at"])
      const issued = yield* admin.issueApiKey({ account_uid: account.uid, expires_at: "2026-05-01T09:00:00Z" })
      expect(Option.getOrThrow(yield* keys.findByHash(hashApiKey(issued.key))).expiresAt?.toISOString()).toBe(
        "2026-05-01T09:00:00.000Z"
      )
      yield* TestClock.adjust("2 hours")
      expect((yield* admin.getApiKey(issued.api_key.uid)).status).toBe("expired")
      // an operator extends it, then clears the expiry
      const extended = yield* admin.updateApiKey(issued.api_key.uid, { expires_at: "2027-01-01T00:00:00Z" })
      expect(extended).toMatchObject({ status: "active", expires_at: "2027-01-01T00:00:00.000Z" })
      expect((yield* admin.updateApiKey(issued.api_key.uid, { expires_at: null })).expires_at).toBeNull()
    }))

  it.effect("scopes and allowed IPs are checked by item; updates reach the lookup", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const admin = yield* Admin
      const keys = yield* ApiKeys
      const account = yield* newAccount()
      const bad = yield* Effect.flip(admin.issueApiKey({
        account_uid: account.uid,
        scopes: ["sms:read", "sms:write"],
        allowed_ips: ["10.0.0.0/8", "10.0.0.300", "2001:db8::/129"]
      }))
      expect(Object.keys((bad as any).errors).sort()).toEqual(["allowed_ips.1", "allowed_ips.2", "scopes.1"])
      const unknownAccount = yield* Effect.flip(
        admin.issueApiKey({ account_uid: "1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed" })
      )
      expect(unknownAccount._tag).toBe("ResourceNotFound")
      const issued = yield* admin.issueApiKey({
        account_uid: account.uid,
        scopes: ["sms:send"],
        allowed_ips: ["203.0.113.7", "2001:db8::/32"]
      })
      const hash = hashApiKey(issued.key)
      expect(Option.getOrThrow(yield* keys.findByHash(hash))).toMatchObject({
        scopes: ["sms:send"],
        allowedIps: ["203.0.113.7", "2001:db8::/32"]
      })
      yield* admin.updateApiKey(issued.api_key.uid, { scopes: ["sms:read", "profile:read"], allowed_ips: [] })
      expect(Option.getOrThrow(yield* keys.findByHash(hash))).toMatchObject({
        scopes: ["sms:read", "profile:read"],
        allowedIps: []
      })
      // a suspended account's key is found, marked inactive
      yield* admin.suspendAccount(account.uid)
      expect(Option.getOrThrow(yield* keys.findByHash(hash)).accountActive).toBe(false)
      expect(["1.2.3.4", "1.2.3.0/24", "::1", "fe80::/10"].every(isIpOrCidr)).toBe(true)
      expect(["1.2.3", "1.2.3.4/33", "host.example", "1.2.3.4/8/1", ""].some(isIpOrCidr)).toBe(false)
    }))

  it.effect("last use: stamped on use, at most once a minute per key, across processes; not for revoked keys", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const admin = yield* Admin
      // two adapters = two server processes sharing the store
      const p1 = yield* apiKeysProcess
      const p2 = yield* apiKeysProcess
      const account = yield* newAccount()
      const issued = yield* admin.issueApiKey({ account_uid: account.uid })
      const hash = hashApiKey(issued.key)
      const lastUsed = lastUsedAt(issued.api_key.uid)
      // count the UPDATEs of the row with a trigger
      yield* Effect.flatMap(
        sqlClient,
        (sql) =>
          sql.unsafe(`CREATE TABLE IF NOT EXISTS api_key_writes (key_id uuid NOT NULL);
CREATE OR REPLACE FUNCTION log_api_key_write() RETURNS trigger AS $$
BEGIN INSERT INTO api_key_writes VALUES (NEW.id); RETURN NEW; END $$ LANGUAGE plpgsql;
DROP TRIGGER IF EXISTS api_key_writes_trigger ON api_keys;
CREATE TRIGGER api_key_writes_trigger AFTER UPDATE ON api_keys FOR EACH ROW EXECUTE FUNCTION log_api_key_write();`)
      )
      const writes = Effect.flatMap(sqlClient, (sql) =>
        Effect.map(
          sql<{ n: string }>`SELECT count(*) AS n FROM api_key_writes WHERE key_id = ${issued.api_key.uid}`,
          (rows) => Number(rows[0].n)
        ))
      const expectWrites = (n: number) => Effect.map(writes, (w) => expect(w).toBe(n))
      expect(yield* lastUsed).toBeNull()

      yield* p1.findByHash(hash)
      expect(yield* lastUsed).toBe(new Date(T0).toISOString())
      yield* expectWrites(1)

      // within the minute: neither process writes
      for (let i = 0; i < 5; i++) {
        yield* TestClock.adjust("10 seconds")
        yield* p1.findByHash(hash)
        yield* p2.findByHash(hash)
      }
      expect(yield* lastUsed).toBe(new Date(T0).toISOString())
      yield* expectWrites(1)

      // a minute after the stamp: one write, by whichever process sees the key first
      yield* TestClock.adjust("11 seconds")
      yield* p2.findByHash(hash)
      yield* p1.findByHash(hash)
      expect(yield* lastUsed).toBe(new Date(T0 + 61_000).toISOString())
      yield* expectWrites(2)
      expect(yield* admin.getApiKey(issued.api_key.uid)).toMatchObject({
        last_used_at: new Date(T0 + 61_000).toISOString()
      })

      // revoked: looking it up is not a use
      yield* admin.revokeApiKey(issued.api_key.uid)
      yield* TestClock.adjust("5 minutes")
      yield* p1.findByHash(hash)
      yield* p2.findByHash(hash)
      expect(yield* lastUsed).toBe(new Date(T0 + 61_000).toISOString())
      yield* expectWrites(3) // the revocation itself, no stamp
    }))
})

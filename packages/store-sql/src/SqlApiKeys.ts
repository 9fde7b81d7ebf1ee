/**
 * SQL adapter of the `ApiKeys` port (the auth middleware's key lookup), PostgreSQL and PGlite.
 *
 * `findByHash` is one indexed read (`api_keys_key_hash_key`) joined with the account. It also keeps
 * `api_keys.last_used_at` without adding a write to every request: a usable key (not revoked, not
 * expired, account active) is stamped at most once per `touchInterval` (default 1 minute):
 *
 *  - per process, a key stamped less than `touchInterval` ago is not written at all (in memory);
 *  - otherwise the UPDATE is conditional (`last_used_at IS NULL OR last_used_at < now - interval`),
 *    so several processes together still write at most about once per interval per key;
 *  - the stamp never fails the request: a failed write is logged and dropped.
 *
 * Time comes from Effect's `Clock` (tests drive it with `TestClock`).
 */
import { SqlClient } from "@effect/sql"
import type { ApiKeyRecord } from "@tuma/core/ports/ApiKeys"
import { ApiKeys } from "@tuma/core/ports/ApiKeys"
import { Clock, Duration, Effect, Layer, Option, Schema } from "effect"
import { ApiKeyRowSchema, findOne } from "./rows.js"

/** Options of the SQL `ApiKeys` look-up. */
export interface SqlApiKeysOptions {
  /** Minimum time between two `last_used_at` writes of one key (default 1 minute). */
  readonly touchInterval?: Duration.DurationInput | undefined
}

/** A key with its account's `active` (the auth look-up's one row). */
const KeyRow = Schema.Struct({
  ...ApiKeyRowSchema.pick(
    "id",
    "account_id",
    "mode",
    "scopes",
    "allowed_ips",
    "expires_at",
    "revoked_at",
    "last_used_at"
  ).fields,
  account_active: Schema.Boolean
})
type KeyRow = typeof KeyRow.Type

const keyRow = findOne(KeyRow)

const MAX_TRACKED = 100_000

/** The SQL `ApiKeys` look-up (by SHA-256), stamping `last_used_at` at most once per `touchInterval` per key. */
export const make = (options: SqlApiKeysOptions = {}) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const interval = Duration.toMillis(Duration.decode(options.touchInterval ?? "1 minute"))
    /** key id → when this process last stamped (or saw a fresh stamp of) it. */
    const stamped = new Map<string, number>()

    const touch = (row: KeyRow, now: number) => {
      const last = Math.max(stamped.get(row.id) ?? 0, row.last_used_at?.getTime() ?? 0)
      if (now - last < interval) {
        if (!stamped.has(row.id)) stamped.set(row.id, last)
        return Effect.void
      }
      if (stamped.size >= MAX_TRACKED) stamped.clear()
      stamped.set(row.id, now)
      const at = new Date(now)
      const threshold = new Date(now - interval)
      return sql`UPDATE api_keys SET last_used_at = ${at}
        WHERE id = ${row.id} AND (last_used_at IS NULL OR last_used_at < ${threshold})`.pipe(
        Effect.asVoid,
        Effect.catchAllCause((cause) => Effect.logWarning("api key last_used_at update failed", cause))
      )
    }

    return ApiKeys.of({
      findByHash: (keyHash) =>
        Effect.gen(function*() {
          const found = yield* keyRow(sql`SELECT k.id, k.account_id, k.mode, k.scopes, k.allowed_ips, k.expires_at,
              k.revoked_at, k.last_used_at, a.active AS account_active
            FROM api_keys k JOIN accounts a ON a.id = k.account_id
            WHERE k.key_hash = ${keyHash}`).pipe(Effect.orDie)
          if (Option.isNone(found)) return Option.none<ApiKeyRecord>()
          const row = found.value
          const now = yield* Clock.currentTimeMillis
          const usable = row.account_active &&
            (row.revoked_at === null || row.revoked_at.getTime() > now) &&
            (row.expires_at === null || row.expires_at.getTime() > now)
          if (usable) yield* touch(row, now)
          return Option.some<ApiKeyRecord>({
            id: row.id,
            accountId: row.account_id,
            mode: row.mode,
            scopes: row.scopes,
            allowedIps: row.allowed_ips,
            expiresAt: row.expires_at,
            revokedAt: row.revoked_at,
            accountActive: row.account_active
          })
        })
    })
  })

/** `ApiKeys` on SQL with these options. */
export const layerWith = (options: SqlApiKeysOptions): Layer.Layer<ApiKeys, never, SqlClient.SqlClient> =>
  Layer.effect(ApiKeys, make(options))

/** `ApiKeys` on SQL with the default options. */
export const layer: Layer.Layer<ApiKeys, never, SqlClient.SqlClient> = layerWith({})

/**
 * In-memory adapter of the `ApiKeys` port (the auth look-up by SHA-256), over the shared
 * `MemoryDatabase`, with the `last_used_at` stamping of `SqlApiKeys`: a usable key (not revoked,
 * not expired, account active) is stamped at most once per `touchInterval` (default 1 minute) —
 * not written at all while this instance stamped it (or saw a fresh stamp) less than an interval
 * ago, and otherwise written only if the stored stamp is still older than an interval, so several
 * instances over one database (as several processes over one SQL database) write about once per
 * interval per key. Time comes from Effect's `Clock`.
 */
import type { Option } from "effect"
import { Clock, Duration, Effect, Layer, Option as O } from "effect"
import type { ApiKeyRecord as ApiKeyLookup } from "../ports/ApiKeys.js"
import { ApiKeys } from "../ports/ApiKeys.js"
import type { ApiKeyRecord } from "./MemoryDatabase.js"
import { MemoryDatabase } from "./MemoryDatabase.js"

/** Options of the memory `ApiKeys` look-up. */
export interface MemoryApiKeysOptions {
  /** Minimum time between two `last_used_at` writes of one key (default 1 minute). */
  readonly touchInterval?: Duration.DurationInput | undefined
}

const MAX_TRACKED = 100_000

/** The memory `ApiKeys` look-up, stamping `last_used_at` at most once per `touchInterval` per key. */
export const make = (options: MemoryApiKeysOptions = {}) =>
  Effect.gen(function*() {
    const db = yield* MemoryDatabase
    const interval = Duration.toMillis(Duration.decode(options.touchInterval ?? "1 minute"))
    /** key id → when this instance last stamped (or saw a fresh stamp of) it. */
    const stamped = new Map<string, number>()

    return ApiKeys.of({
      findByHash: (keyHash) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          db.transact((t): Option.Option<ApiKeyLookup> => {
            let row: ApiKeyRecord | undefined
            for (const k of t.apiKeys.values()) {
              if (k.key_hash === keyHash) {
                row = k
                break
              }
            }
            if (row === undefined) return O.none()
            const accountActive = t.accounts.get(row.account_id)?.active === true
            const usable = accountActive &&
              (row.revoked_at === null || row.revoked_at.getTime() > now) &&
              (row.expires_at === null || row.expires_at.getTime() > now)
            // the answer is read before the stamp, as the SQL look-up reads before its UPDATE
            const answer: ApiKeyLookup = {
              id: row.id,
              accountId: row.account_id,
              mode: row.mode,
              scopes: [...row.scopes],
              allowedIps: [...row.allowed_ips],
              expiresAt: row.expires_at,
              revokedAt: row.revoked_at,
              accountActive
            }
            if (usable) touch(row, now)
            return O.some(answer)
          }))
    })

    function touch(row: ApiKeyRecord, now: number): void {
      const last = Math.max(stamped.get(row.id) ?? 0, row.last_used_at?.getTime() ?? 0)
      if (now - last < interval) {
        if (!stamped.has(row.id)) stamped.set(row.id, last)
        return
      }
      if (stamped.size >= MAX_TRACKED) stamped.clear()
      stamped.set(row.id, now)
      if (row.last_used_at === null || row.last_used_at.getTime() < now - interval) row.last_used_at = new Date(now)
    }
  })

/** `ApiKeys` in memory with these options (needs the shared `MemoryDatabase`). */
export const layerWith = (options: MemoryApiKeysOptions): Layer.Layer<ApiKeys, never, MemoryDatabase> =>
  Layer.effect(ApiKeys, make(options))

/** `ApiKeys` in memory with the default options (needs the shared `MemoryDatabase`). */
export const layerMemory: Layer.Layer<ApiKeys, never, MemoryDatabase> = layerWith({})

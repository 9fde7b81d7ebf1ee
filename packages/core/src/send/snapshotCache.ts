/**
 * The single send's snapshot cache: most single sends of an account repeat the same
 * (account, sender ID, country), and the settings behind their checks change seldom, so the store's
 * snapshot of them is reused instead of read on every send. Reuse never changes an answer:
 *
 * - **Only a store that versions its settings is cached**: the snapshot must carry the
 *   `settingsVersion` it was read at (the SQL store reads it in the same statement). Others (the
 *   in-memory store) are read on every send.
 * - **A reused snapshot can only accept**: any refusal it leads to (account, market, sender ID, route,
 *   spam, provider, a missing wallet) is decided again on a fresh snapshot, so a setting that *allows*
 *   a send (an approval, a new provider, a first top-up) takes effect at once. The customer wallet's
 *   balance is not pre-checked on a reused snapshot: `accept`'s conditional debit decides it.
 * - **`accept` re-checks what the snapshot said** (`AcceptGuard`, in the accept's transaction): the
 *   settings version is unchanged and the recipient has not opted out. Otherwise it writes nothing and
 *   answers `Stale`, and the send is decided again on a fresh snapshot — so a setting that *forbids* a
 *   send (suspension, a closed market, a revoked sender ID, an opt-out, a spam rule) holds for every send
 *   accepted after it commits, in every process.
 * - **Provider credit** (the one input that changes with traffic, not with settings) is at most
 *   `SendConfig.snapshotReuseMillis` old (default 1 s; 0 switches the cache off); the dispatcher's own credit check is authoritative.
 * - A sandbox send (no `accept` to re-check anything) is always checked on a fresh snapshot.
 * - Entries are dropped when the settings change (`SettingsChanges`, when the layer has it) and after
 *   that time; at most `maxEntries` are kept.
 * - **One read per key at a time**: sends that miss while a read of their key is in flight wait for
 *   it instead of reading too (at 50 connections every expiry used to start ≈40 identical reads:
 *   527 snapshot reads in a 13 s embedded run instead of 13). They take it as *reused* (without the
 *   leader's recipients' opt-outs, so `accept` guards theirs), and only from a store that versions its
 *   settings; a read that fails leaves each waiter to read for itself.
 */
import { Clock, Deferred, Effect, Exit } from "effect"
import type { SendSnapshot, SendStore, SnapshotRequest } from "../ports/SendStore.js"

/** A snapshot, and whether it was reused (then a refusal must be decided again, and `accept` guarded). */
export interface CachedSnapshot {
  readonly snapshot: SendSnapshot
  readonly reused: boolean
}

/** The cache's settings. */
export interface SnapshotCacheOptions {
  readonly maxEntries: number
}

/** The single send's snapshot cache (see the module comment). */
export interface SnapshotCache {
  /**
   * A snapshot for one recipient's send: reused when one younger than `ttlMillis` exists, else read
   * (and kept for `ttlMillis`; 0 keeps nothing).
   */
  readonly get: (request: SnapshotRequest, ttlMillis: number) => Effect.Effect<CachedSnapshot>
  /** A fresh snapshot, read from the store (and kept for `ttlMillis`). */
  readonly fresh: (request: SnapshotRequest, ttlMillis: number) => Effect.Effect<CachedSnapshot>
  /** Drops every entry (settings changed). */
  readonly clear: () => void
}

interface Entry {
  readonly snapshot: SendSnapshot
  readonly until: number
}

/** One key per (account, sender ID, countries): what a snapshot read without recipients depends on. */
const keyOf = (r: SnapshotRequest) => `${r.accountId}\u0001${r.senderName}\u0001${r.countries.join(",")}`

/** Builds the cache over the store (see the module comment). */
export const makeSnapshotCache = (store: SendStore["Type"], options: SnapshotCacheOptions): SnapshotCache => {
  const entries = new Map<string, Entry>()
  // the read in flight per key (started by `get` on a miss), which later misses of the key wait for
  const inFlight = new Map<string, Deferred.Deferred<SendSnapshot>>()
  // bumped by `clear`: a read that started before a clear is not kept
  let epoch = 0

  /** A snapshot read by another send of the same key: reused (guarded by `accept`), not the leader's opt-outs. */
  const joined = (snapshot: SendSnapshot): CachedSnapshot => ({ snapshot: { ...snapshot, optedOut: [] }, reused: true })

  /** Reads on a miss, as the key's one read in flight; or waits for the one already in flight. */
  const readOnce = (request: SnapshotRequest, ttlMillis: number): Effect.Effect<CachedSnapshot> => {
    const key = keyOf(request)
    const pending = inFlight.get(key)
    if (pending !== undefined) {
      return Effect.flatMap(
        Effect.exit(Deferred.await(pending)),
        (exit) =>
          Exit.isSuccess(exit) && exit.value.settingsVersion !== undefined
            ? Effect.succeed(joined(exit.value))
            : fresh(request, ttlMillis)
      )
    }
    return Effect.flatMap(Deferred.make<SendSnapshot>(), (deferred) => {
      inFlight.set(key, deferred)
      return fresh(request, ttlMillis).pipe(
        Effect.onExit((exit) => {
          if (inFlight.get(key) === deferred) inFlight.delete(key)
          return Deferred.done(deferred, Exit.map(exit, (cached) => cached.snapshot))
        })
      )
    })
  }

  const fresh = (request: SnapshotRequest, ttlMillis: number): Effect.Effect<CachedSnapshot> => {
    const startedAt = epoch
    return Effect.flatMap(store.snapshot(request), (snapshot) => {
      if (snapshot.settingsVersion === undefined || ttlMillis <= 0 || startedAt !== epoch) {
        return Effect.succeed({ snapshot, reused: false })
      }
      return Effect.map(Clock.currentTimeMillis, (now) => {
        if (entries.size >= options.maxEntries) entries.clear()
        // kept without the opt-outs of this send's recipients: a reuse is guarded by `accept` instead
        entries.set(keyOf(request), { snapshot: { ...snapshot, optedOut: [] }, until: now + ttlMillis })
        return { snapshot, reused: false }
      })
    })
  }

  const get = (request: SnapshotRequest, ttlMillis: number): Effect.Effect<CachedSnapshot> =>
    ttlMillis <= 0 ? fresh(request, ttlMillis) : Effect.flatMap(Clock.currentTimeMillis, (now) => {
      const key = keyOf(request)
      const entry = entries.get(key)
      if (entry !== undefined) {
        if (entry.until > now) return Effect.succeed({ snapshot: entry.snapshot, reused: true })
        entries.delete(key)
      }
      return readOnce(request, ttlMillis)
    })

  return {
    get,
    fresh,
    clear: () => {
      epoch++
      entries.clear()
      // a read that started before the change is not joined by sends that arrive after it
      inFlight.clear()
    }
  }
}

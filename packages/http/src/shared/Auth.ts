/**
 * API-key authentication (spec §5, decisions §1–2, §7), run on every request of the public API:
 *
 *  1. `Authorization: Bearer <key>` present                      else 401 "API key missing"
 *  2. key shaped `tuma_live_<random>` / `tuma_test_<random>`       else 401 "malformed"
 *  3. not a documentation placeholder (`tuma_live_xxxx…`, `YOUR_API_KEY`) else 401
 *  4. a stored key with that SHA-256 hash                          else 401 "invalid"
 *  5. not revoked, not expired                                      else 401
 *  6. the client address is allowed (CIDR list; the socket address, or `X-Forwarded-For` only when
 *     the socket is a configured trusted proxy)                    else 401
 *  7. the key has the endpoint's scope                              else 401 (or 403, configurable)
 *  8. the key is under its request rate (per key per window)       else 429 with Retry-After and
 *     X-RateLimit-Limit / -Remaining / -Reset (if the limiter's store fails the request goes on:
 *     the failure is logged)
 *
 * Lookups are cached per process for `auth.cacheTtlMillis` (default 2 s), one read per key at a time
 * (`AuthCache`). The cache is cleared when
 * a key or an account changes in any process (`SettingsChanges`: NOTIFY, or the version poll within
 * 0.5 s), and at once by this process's admin API; the TTL only bounds a lost notification.
 */
import { RateLimiter } from "@effect/experimental"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import { ApiKeys } from "@tuma/core"
import type { ApiKeyRecord } from "@tuma/core"
import { hashApiKey } from "@tuma/core"
import { SettingsChanges } from "@tuma/core"
import { API_KEY_PATTERN, Cidr, isPlaceholderKey } from "@tuma/domain"
import { Clock, Context, Deferred, Duration, Effect, Exit, FiberId, Layer, Option } from "effect"
import { ServerConfig } from "../runtime/Config.js"
import { Forbidden, TooManyRequests, Unauthorized } from "./Envelope.js"
import type { AuthenticatedKey, Scope } from "./Security.js"
import {
  RequireProfileRead,
  RequireSenderIdsRead,
  RequireSenderIdsWrite,
  RequireSmsInbound,
  RequireSmsRead,
  RequireSmsSend,
  scopeOf
} from "./Security.js"

const unauthorized = (message: string) => Effect.fail(Unauthorized.of({ message }))

/**
 * The per-process lookup cache; `invalidate` after revoking or changing a key.
 *
 * One look-up per key at a time: requests that miss while the key is being read wait for that read
 * (at 50 connections every expiry of a busy key used to start ≈ 40 identical reads); if it fails or
 * is interrupted, each waiter reads for itself. `invalidate` also forgets the reads in flight: a
 * request after it never joins one that started before, and what such a read finds is answered to
 * its requests but not kept.
 */
export class AuthCache extends Context.Tag("@tuma/http/AuthCache")<AuthCache, {
  /** The cached record of `hash`, else `load`'s answer (kept for the TTL). */
  readonly lookup: (
    hash: string,
    now: number,
    load: Effect.Effect<Option.Option<ApiKeyRecord>>
  ) => Effect.Effect<Option.Option<ApiKeyRecord>>
  readonly invalidate: Effect.Effect<void>
}>() {
  static readonly layer = Layer.scoped(
    AuthCache,
    Effect.gen(function*() {
      const config = yield* ServerConfig
      const ttl = config.auth.cacheTtlMillis
      const entries = new Map<string, { readonly value: Option.Option<ApiKeyRecord>; readonly until: number }>()
      const inFlight = new Map<string, Deferred.Deferred<Option.Option<ApiKeyRecord>, void>>()
      let generation = 0
      const clear = () => {
        generation++
        entries.clear()
        inFlight.clear()
      }
      // keys revoked, changed or issued, accounts suspended: in this process or another one
      const changed = yield* (yield* SettingsChanges).subscribe
      yield* changed.pipe(Effect.zipRight(Effect.sync(clear)), Effect.forever, Effect.forkScoped)

      /** Reads `hash` for every request that misses until it is done (registered before anything yields). */
      const lead = (hash: string, now: number, load: Effect.Effect<Option.Option<ApiKeyRecord>>) => {
        const done = Deferred.unsafeMake<Option.Option<ApiKeyRecord>, void>(FiberId.none)
        const started = generation
        inFlight.set(hash, done)
        return Effect.onExit(load, (exit) =>
          Effect.suspend(() => {
            if (inFlight.get(hash) === done) inFlight.delete(hash)
            if (Exit.isFailure(exit)) return Deferred.fail(done, undefined)
            if (started === generation) {
              if (entries.size >= 10_000) entries.clear()
              entries.set(hash, { value: exit.value, until: now + ttl })
            }
            return Deferred.succeed(done, exit.value)
          }))
      }

      return {
        lookup: (hash, now, load) =>
          Effect.suspend(() => {
            if (ttl <= 0) return load
            const e = entries.get(hash)
            if (e !== undefined) {
              if (e.until > now) return Effect.succeed(e.value)
              entries.delete(hash)
            }
            const reading = inFlight.get(hash)
            if (reading === undefined) return lead(hash, now, load)
            return Effect.catchAll(Deferred.await(reading), () => load)
          }),
        invalidate: Effect.sync(clear)
      }
    })
  )
}

/** Runs a change to an API key or an account, then clears this process's key cache (other processes hear of
 * the change through `SettingsChanges`). */
export const clearingKeyCache = <A, E, R>(change: Effect.Effect<A, E, R>) =>
  Effect.tap(change, () => Effect.flatMap(AuthCache, (cache) => cache.invalidate))

/** The `X-RateLimit-*` headers of an answer. */
export const rateLimitHeaders = (limit: number, remaining: number, resetMillis: number) => ({
  "x-ratelimit-limit": String(limit),
  "x-ratelimit-remaining": String(Math.max(0, remaining)),
  "x-ratelimit-reset": String(Math.max(1, Math.ceil(resetMillis / 1000)))
})

/** The authentication check for one scope. */
export const makeAuthenticator = Effect.gen(function*() {
  const keys = yield* ApiKeys
  const config = yield* ServerConfig
  const cache = yield* AuthCache
  const limiter = yield* RateLimiter.RateLimiter
  const isTrustedProxy = Cidr.matcher(config.auth.trustedProxies)
  const hasProxies = config.auth.trustedProxies.length > 0
  const allowedCache = new WeakMap<ReadonlyArray<string>, (address: string) => boolean>()
  const allowedMatcher = (list: ReadonlyArray<string>) => {
    let m = allowedCache.get(list)
    if (m === undefined) {
      m = Cidr.matcher(list)
      allowedCache.set(list, m)
    }
    return m
  }
  const { limit, windowMillis } = config.rateLimit
  const window = Duration.millis(windowMillis)

  const lookup = (hash: string, now: number) => cache.lookup(hash, now, keys.findByHash(hash))

  const scopeFailure = (scope: Scope) => {
    const message = `This API key does not have the ${scope} permission.`
    return config.auth.missingScopeStatus === 403
      ? Effect.fail(Forbidden.of({ message }))
      : unauthorized(message)
  }

  /** The checks 1–8 of a request's headers and socket address for one scope. */
  const authenticate = (
    scope: Scope,
    headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>,
    socketAddress: string | undefined
  ) =>
    Effect.gen(function*() {
      const header = first(headers["authorization"])
      if (header === undefined || header.trim() === "") {
        return yield* unauthorized("API key missing. Send Authorization: Bearer <API_KEY>.")
      }
      const match = /^bearer\s+(.+)$/i.exec(header.trim())
      if (match === null) {
        return yield* unauthorized("Malformed Authorization header. Send Authorization: Bearer <API_KEY>.")
      }
      const key = match[1].trim()
      if (isPlaceholderKey(key)) {
        return yield* unauthorized("This is a documentation placeholder, not an API key. Use a key issued to you.")
      }
      if (!API_KEY_PATTERN.test(key)) {
        return yield* unauthorized("Malformed API key: keys look like tuma_live_… or tuma_test_….")
      }
      const now = yield* Clock.currentTimeMillis
      const found = yield* lookup(hashApiKey(key), now)
      if (Option.isNone(found)) return yield* unauthorized("Invalid API key.")
      const record = found.value
      if (record.revokedAt !== null && record.revokedAt.getTime() <= now) {
        return yield* unauthorized("This API key has been revoked.")
      }
      if (record.expiresAt !== null && record.expiresAt.getTime() <= now) {
        return yield* unauthorized("This API key has expired.")
      }
      if (record.allowedIps.length > 0) {
        const address = hasProxies
          ? Cidr.clientAddress(socketAddress, first(headers["x-forwarded-for"]), isTrustedProxy)
          : socketAddress
        if (address === undefined || !allowedMatcher(record.allowedIps)(address)) {
          return yield* unauthorized(`Requests from ${address ?? "this address"} are not allowed for this API key.`)
        }
      }
      if (!record.scopes.includes(scope)) return yield* scopeFailure(scope)
      yield* limiter.consume({ algorithm: "fixed-window", window, limit, key: `req:${record.id}` }).pipe(
        Effect.catchTags({
          RateLimiterError: (e) =>
            e.reason === "Exceeded"
              ? Effect.fail(TooManyRequests.of(
                {
                  message: "Too many requests for this API key; slow down.",
                  error_code: "RATE_LIMITED",
                  acceptance_state: "DEFINITELY_NOT_ACCEPTED"
                },
                {
                  "retry-after": String(Math.max(1, Math.ceil(Duration.toMillis(e.retryAfter) / 1000))),
                  ...rateLimitHeaders(e.limit, 0, Duration.toMillis(e.retryAfter))
                }
              ))
              // the limiter's store failed: let the request through (a limit protects, it does not decide)
              : Effect.logWarning("rate limiter unavailable; request let through", e)
        })
      )
      const authenticated: AuthenticatedKey = {
        keyId: record.id,
        accountId: record.accountId,
        mode: record.mode,
        scopes: new Set(record.scopes)
      }
      return authenticated
    })

  return {
    authenticate,
    /** The security middleware's handler of one scope (reads the request's headers and socket). */
    bearer: (scope: Scope) => (_token: unknown) =>
      Effect.flatMap(
        HttpServerRequest.HttpServerRequest,
        (request) => authenticate(scope, request.headers, Option.getOrUndefined(request.remoteAddress))
      )
  }
})

/** The request-level authenticator (`makeAuthenticator`'s `authenticate`), for paths served beside the router. */
export class Authenticator extends Context.Tag("@tuma/http/Authenticator")<
  Authenticator,
  Effect.Effect.Success<typeof makeAuthenticator>["authenticate"]
>() {}

const first = (v: string | ReadonlyArray<string> | undefined): string | undefined =>
  typeof v === "string" || v === undefined ? v : v[0]

/** The six scope middlewares and the `Authenticator`, from the `ApiKeys` port, a `RateLimiter` and the config. */
export const layer = Layer.effectContext(
  Effect.map(
    makeAuthenticator,
    ({ authenticate, bearer: check }) =>
      Context.make(RequireSmsRead, { bearer: check(scopeOf(RequireSmsRead)) }).pipe(
        Context.add(Authenticator, authenticate),
        Context.add(RequireSmsSend, { bearer: check(scopeOf(RequireSmsSend)) }),
        Context.add(RequireSenderIdsRead, { bearer: check(scopeOf(RequireSenderIdsRead)) }),
        Context.add(RequireSenderIdsWrite, { bearer: check(scopeOf(RequireSenderIdsWrite)) }),
        Context.add(RequireProfileRead, { bearer: check(scopeOf(RequireProfileRead)) }),
        Context.add(RequireSmsInbound, { bearer: check(scopeOf(RequireSmsInbound)) })
      )
  )
)

/**
 * The `ContentCounter` port (@tuma/core) over @effect/experimental's `RateLimiter`: fixed-window
 * counters in the shared database (`SqlRateLimitStore`, one upsert per take), so the duplicate-content
 * limit holds across every process. Keys are stored as a SHA-256 digest (they carry message text).
 *
 * - `layer` needs only the database: a `RateLimiter` of its own over `SqlRateLimitStore`.
 * - `layerRateLimiter` uses the `RateLimiter` the caller assembled (the server's, with leasing).
 */
import { RateLimiter } from "@effect/experimental"
import type { SqlClient } from "@effect/sql"
import { ContentCounter, ContentCounterUnavailable } from "@tuma/core"
import { Effect, Layer, Option } from "effect"
import { createHash } from "node:crypto"
import * as SqlRateLimitStore from "./SqlRateLimitStore.js"

const digest = (key: string) => {
  const colon = key.indexOf(":")
  return `${key.slice(0, colon + 1)}${createHash("sha256").update(key).digest("base64url")}`
}

/** The adapter over a `RateLimiter` supplied by the caller. */
export const layerRateLimiter: Layer.Layer<ContentCounter, never, RateLimiter.RateLimiter> = Layer.effect(
  ContentCounter,
  Effect.map(RateLimiter.RateLimiter, (limiter) =>
    ContentCounter.of({
      take: (key, window, limit) =>
        limiter.consume({ algorithm: "fixed-window", window, limit, key: digest(key) }).pipe(
          Effect.as(Option.none()),
          Effect.catchTag("RateLimiterError", (e) =>
            e.reason === "Exceeded"
              ? Effect.succeed(Option.some(e.retryAfter))
              : Effect.fail(new ContentCounterUnavailable({ cause: e })))
        )
    }))
)

/** The adapter over the database alone. */
export const layer: Layer.Layer<ContentCounter, never, SqlClient.SqlClient> = layerRateLimiter.pipe(
  Layer.provide(RateLimiter.layer),
  Layer.provide(SqlRateLimitStore.layer)
)

/**
 * decisions §7, the duplicate-content limit: the same (sender ID, text) more than
 * `rateLimit.duplicateLimit` times in `rateLimit.duplicateWindowMillis` per account and mode → 429
 * `DuplicateContentRateLimited`. One counter per (account, mode, sender ID, text) digest, shared by
 * the API's sends and the portal's web sends. A limiter store that is unavailable lets the send
 * through (logged): the limit protects carriers, it never loses a send.
 */
import { RateLimiter } from "@effect/experimental"
import { DuplicateContentRateLimited } from "@tuma/domain"
import { Duration, Effect } from "effect"
import { createHash } from "node:crypto"
import { ServerConfig } from "./Config.js"
import { toApiFailure } from "./Errors.js"

/** Builds the counter from the server's rate-limit settings and the limiter store. */
export const makeDuplicateContentCounter = Effect.gen(function*() {
  const limiter = yield* RateLimiter.RateLimiter
  const config = yield* ServerConfig
  const window = Duration.millis(config.rateLimit.duplicateWindowMillis)
  const limit = config.rateLimit.duplicateLimit
  const message = `The same message from this sender ID was sent more than ${limit} times in ` +
    `${Math.round(Duration.toMinutes(window))} minutes; try again later.`

  /** Counts one send of `body` from `senderId`; fails with the 429 answer over the limit. */
  return (accountId: string, mode: string, senderId: string, body: string) => {
    const digest = createHash("sha256").update(senderId.trim().toUpperCase()).update("\u0000").update(body)
      .digest("base64url")
    return limiter.consume({ algorithm: "fixed-window", window, limit, key: `dup:${accountId}:${mode}:${digest}` })
      .pipe(
        Effect.catchTags({
          RateLimiterError: (e) =>
            e.reason === "Exceeded"
              ? Effect.fail(toApiFailure(
                new DuplicateContentRateLimited({
                  message,
                  retry_after_seconds: Math.ceil(Duration.toSeconds(e.retryAfter))
                }),
                { send: true }
              ))
              : Effect.logWarning("duplicate-content limiter unavailable; send let through", e)
        })
      )
  }
})

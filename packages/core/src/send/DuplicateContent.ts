/**
 * decisions §7, the duplicate-content limit: the same (sender ID, text) more than
 * `SendConfig.duplicateLimit` times in `SendConfig.duplicateWindow`, per account and mode, is refused
 * with 429 `DuplicateContentRateLimited`. One counter per (account, mode, sender ID, text), shared by
 * the API's single sends and the portal's web sends (both go through `Send.single`).
 *
 * - A request that repeats an Idempotency-Key already seen in the window is a retry of one send and
 *   is not counted again.
 * - An unavailable counter lets the send through (logged): the limit protects carriers, it never
 *   loses a send.
 */
import { DuplicateContentRateLimited } from "@tuma/domain"
import { Duration, Effect, Option } from "effect"
import { ContentCounter } from "../ports/ContentCounter.js"

/** Who sends, as the limit keys it. */
export interface DuplicateContentCaller {
  readonly accountId: string
  readonly mode: "live" | "test"
  readonly idempotencyKey?: string | undefined
}

/** The limit's settings (part of `SendSettings`). */
export interface DuplicateContentSettings {
  readonly duplicateLimit: number
  readonly duplicateWindow: Duration.Duration
}

/** The refusal, with the time left in the window. */
export const duplicateContentRefusal = (settings: DuplicateContentSettings, retryAfter: Duration.Duration) =>
  new DuplicateContentRateLimited({
    message: `The same message from this sender ID was sent more than ${settings.duplicateLimit} times in ` +
      `${Math.round(Duration.toMinutes(settings.duplicateWindow))} minutes; try again later.`,
    retry_after_seconds: Math.ceil(Duration.toSeconds(retryAfter))
  })

/** The counter key of one (account, mode, sender ID, text): sender IDs compare case-insensitively. */
export const duplicateContentKey = (caller: DuplicateContentCaller, senderId: string, body: string) =>
  `dup:${caller.accountId}:${caller.mode}:${senderId.trim().toUpperCase()}\u0000${body}`

/** Counts one send of `body` from `senderId`; fails with the 429 answer over the limit. */
export const checkDuplicateContent = (
  counter: ContentCounter["Type"],
  settings: DuplicateContentSettings,
  caller: DuplicateContentCaller,
  senderId: string,
  body: string
): Effect.Effect<void, DuplicateContentRateLimited> => {
  const unavailable = (e: unknown) => Effect.logWarning("duplicate-content counter unavailable; send let through", e)
  const count = counter.take(
    duplicateContentKey(caller, senderId, body),
    settings.duplicateWindow,
    settings.duplicateLimit
  )
    .pipe(
      Effect.flatMap(Option.match({
        onNone: () => Effect.void,
        onSome: (retryAfter) => Effect.fail(duplicateContentRefusal(settings, retryAfter))
      })),
      Effect.catchTag("ContentCounterUnavailable", unavailable)
    )
  if (caller.idempotencyKey === undefined) return count
  return counter.take(`dupk:${caller.accountId}:${caller.mode}:${caller.idempotencyKey}`, settings.duplicateWindow, 1)
    .pipe(
      Effect.matchEffect({
        onFailure: unavailable,
        // seen before in the window: a retry of a counted send
        onSuccess: Option.match({ onNone: () => count, onSome: () => Effect.void })
      })
    )
}

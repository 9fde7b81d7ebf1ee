/**
 * The two-way SMS housekeeping of a process (next to the delivery workers):
 *
 * - **joiner**: parts whose message is still incomplete after `joinWaitMs` are joined with what
 *   arrived (`complete: false`) — kept and delivered, never dropped; joined parts past their re-send
 *   window are forgotten.
 * - **replier**: the auto replies owed to STOP, START and HELP words are sent through `Send` (every
 *   rule of a normal send; a STOP confirmation is the one message an opted-out handset still gets),
 *   from the number the word came in on, charged to the account. A refusal that a retry cannot fix
 *   is recorded as failed; others are retried after 30 s, 2 and 10 minutes.
 *
 * Several processes may run them: both work on leased or locked rows.
 */
import { Clock, Context, Duration, Effect, Layer, Schedule } from "effect"
import type { DueReply } from "../ports/InboundStore.js"
import { InboundStore } from "../ports/InboundStore.js"
import { Send } from "../send/Send.js"

/** How long parts wait for the rest of their message, and how often the workers look. */
export interface InboundWorkerSettings {
  readonly joinWaitMs: number
  readonly pollMs: number
}

/** 2 minutes of waiting for missing parts; a look every second. */
export const defaultInboundWorkerSettings: InboundWorkerSettings = { joinWaitMs: 120_000, pollMs: 1_000 }

const RETRY_MS = [30_000, 120_000, 600_000] as const

/** Refusals a later attempt cannot fix. */
const PERMANENT = new Set([
  "VALIDATION_FAILED",
  "INVALID_RECIPIENT",
  "RECIPIENT_OPTED_OUT",
  "SPAM_POLICY",
  "SENDER_ID_NOT_APPROVED",
  "COUNTRY_NOT_AVAILABLE",
  "EMPTY_MESSAGE",
  "MESSAGE_TOO_LONG"
])

/** Handle on the running inbound workers: one pass of each, now (tests). */
export class InboundWorkers extends Context.Tag("@tuma/core/InboundWorkers")<InboundWorkers, {
  readonly runOnce: Effect.Effect<void>
}>() {}

/** Starts the joiner and the replier for the lifetime of the layer. */
export const layer = (
  settings: InboundWorkerSettings = defaultInboundWorkerSettings
): Layer.Layer<InboundWorkers, never, InboundStore | Send> =>
  Layer.scoped(
    InboundWorkers,
    Effect.gen(function*() {
      const store = yield* InboundStore
      const send = yield* Send
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

      const sendReply = (r: DueReply) =>
        send.single(
          { accountId: r.accountId, apiKeyId: null, mode: "live", channel: "web", optOutNotice: true },
          { recipient: r.handset, sender_id: r.sender, body: r.text }
        ).pipe(
          Effect.matchEffect({
            onSuccess: (o) => store.completeReply(r.inboundId, { _tag: "Sent", messageId: o.data.uid }),
            onFailure: (e) =>
              Effect.gen(function*() {
                const delay = PERMANENT.has(e.error_code) ? undefined : RETRY_MS[r.attempts - 1]
                const at = yield* now
                yield* Effect.logWarning(`auto reply to ${r.handset} not sent: ${e.error_code}: ${e.message}`)
                yield* store.completeReply(r.inboundId, {
                  _tag: "Failed",
                  error: `${e.error_code}: ${e.message}`,
                  retryAt: delay === undefined ? null : new Date(at.getTime() + delay)
                })
              })
          })
        )

      const runOnce = Effect.gen(function*() {
        const at = yield* now
        // the polling statements are not traces (docs/observability.md); a reply is a send, traced as one
        const { due, joined } = yield* Effect.gen(function*() {
          const joined = yield* store.joinExpired(new Date(at.getTime() - settings.joinWaitMs), at)
          yield* store.purgeParts(at)
          const due = yield* store.claimReplies(20, at, new Date(at.getTime() + 60_000))
          return { due, joined }
        }).pipe(Effect.withTracerEnabled(false))
        if (joined.messages > 0) yield* Effect.logInfo(`inbound: ${joined.messages} incomplete message(s) joined`)
        yield* Effect.forEach(due, sendReply, { concurrency: 4, discard: true })
      })

      yield* runOnce.pipe(
        Effect.catchAllCause((cause) => Effect.logError("inbound workers failed; retrying", cause)),
        Effect.repeat(Schedule.spaced(Duration.millis(settings.pollMs))),
        Effect.forkScoped
      )
      return InboundWorkers.of({ runOnce })
    })
  )

/**
 * The webhook workers: a queue of their own, separate from SMS dispatch.
 *
 * - **pump**: claims due deliveries (written by the final-state transaction itself, see migration
 *   0201) up to the free capacity and starts one fiber per HTTP attempt.
 *   A slow or dead receiver only occupies its own attempts (10 s at most each); SMS dispatch never
 *   waits on any of this.
 * - **recorder**: writes finished attempts in batches (attempt rows, delivery state, the
 *   consecutive-failure rule) and frees capacity.
 * - **notifier**: sends the e-mail and SMS owed when an endpoint was disabled.
 *
 * Everything is durable: a delivery claimed by a worker that dies becomes due again when its lease
 * (timeout + margin) runs out; retries wait in the table with their `next_attempt_at`, so they
 * resume after a restart.
 */
import type { WebhookRetryPolicy } from "@tuma/domain"
import { buildWebhookBody, retryDelayAfter } from "@tuma/domain"
import { Chunk, Clock, Context, Effect, FiberSet, Layer, Option, Queue } from "effect"
import { Ids } from "../ports/Ids.js"
import { Mailer, SystemSms, SystemSmsError, WebhookSender } from "../ports/Notifiers.js"
import type { AttemptRecord, ClaimedDelivery, ClaimedNotification, DeliveryMessage } from "../ports/WebhookStore.js"
import { WebhookStore, WebhookWakeups } from "../ports/WebhookStore.js"
import type { WebhookSettings } from "./WebhookConfig.js"
import { WebhookConfig } from "./WebhookConfig.js"

const nowDate = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

/**
 * The exact body of a delivery, built from its message (frozen since the final state) and its
 * `created_at`: the same bytes on every attempt.
 */
export const deliveryBody = (settings: Pick<WebhookSettings, "utcOffsetMinutes">, d: DeliveryMessage): string =>
  buildWebhookBody({
    messageId: d.messageId,
    to: d.recipient,
    status: d.messageStatus,
    senderId: d.senderId,
    error: d.failureReason,
    finalAt: d.finalAt,
    now: d.createdAt,
    utcOffsetMinutes: settings.utcOffsetMinutes
  }).body

/** Text of the notices sent when an endpoint is disabled. */
export const disabledNotice = (
  n: ClaimedNotification,
  policy: Pick<WebhookRetryPolicy, "disableAfterConsecutiveFailures">
) => {
  const failures = n.consecutiveFailures > 0 ? n.consecutiveFailures : policy.disableAfterConsecutiveFailures
  const when = (n.disabledAt ?? new Date()).toISOString()
  const shortUrl = n.url.length > 60 ? `${n.url.slice(0, 57)}...` : n.url
  return {
    subject: `Tuma webhook endpoint disabled: ${n.url}`,
    text: `Hello ${n.accountName},\n\n` +
      `Your Tuma webhook endpoint\n\n  ${n.url}\n\n` +
      `was disabled at ${when} after ${failures} consecutive failed delivery attempts. ` +
      `Tuma has stopped posting delivery reports to it.\n\n` +
      `Fix the receiver, then re-enable the endpoint in the portal. Re-enabling does not resend the ` +
      `events that occurred while it was disabled; ask for a redelivery to receive them.\n\n` +
      `Endpoint id: ${n.endpointId}\n`,
    sms: `Tuma: your webhook ${shortUrl} was disabled after ${failures} failed deliveries. ` +
      `Fix it, then re-enable it in the portal.`
  }
}

/** Handle on the running webhook workers (pump, recorder, notifier) of this process. */
export class WebhookWorkers extends Context.Tag("@tuma/core/WebhookWorkers")<WebhookWorkers, {
  /** Asks the pump to look for work now (e.g. right after a redelivery). */
  readonly wake: Effect.Effect<void>
  /** Attempts in flight (claimed, not yet recorded). */
  readonly inFlight: Effect.Effect<number>
}>() {}

/**
 * Starts the pump, recorder and notifier in the current scope; on close, attempts in flight get
 * `shutdownGraceMs` to finish and be recorded.
 */
export const makeWebhookWorkers = Effect.gen(function*() {
  const store = yield* WebhookStore
  const sender = yield* WebhookSender
  const settings = yield* WebhookConfig
  const ids = yield* Ids
  const mailer = yield* Mailer
  const sms = yield* SystemSms
  const policy = settings.retry

  let inFlight = 0
  const results = yield* Queue.unbounded<AttemptRecord>()
  const wakePump = yield* Queue.sliding<true>(1)
  const wakeNotifier = yield* Queue.sliding<true>(1)
  const attempts = yield* FiberSet.make<void>()

  const attempt = (d: ClaimedDelivery) =>
    Effect.gen(function*() {
      const attemptedAt = yield* nowDate
      const r = yield* sender.send({
        url: d.url,
        body: d.payload ?? deliveryBody(settings, d),
        secret: d.secret,
        event: d.event,
        deliveryId: d.id,
        timeoutMs: policy.timeoutMs
      })
      const number = d.attempts + 1
      const delay = r.outcome === "failure" ? retryDelayAfter(policy, number) : null
      const finishedAt = yield* nowDate
      yield* Queue.offer(results, {
        deliveryId: d.id,
        endpointId: d.endpointId,
        attempt: number,
        attemptedAt,
        outcome: r.outcome,
        responseStatus: r.status,
        latencyMs: r.latencyMs,
        error: r.error,
        nextAttemptAt: delay === null ? null : new Date(finishedAt.getTime() + delay)
      })
    })

  let stopping = false

  const pumpOnce = Effect.gen(function*() {
    if (stopping) return 0
    const now = yield* nowDate
    // Claim in worthwhile chunks: a claim costs about the same for 5 rows as for 200.
    const capacity = settings.concurrency - inFlight
    const minClaim = inFlight === 0
      ? 1
      : Math.max(1, Math.floor(Math.min(settings.claimBatch, settings.concurrency) / 4))
    if (capacity < minClaim) return 0
    const leaseUntil = new Date(now.getTime() + policy.timeoutMs + settings.leaseMarginMs)
    const claimed = yield* store.claimDue(Math.min(settings.claimBatch, capacity), now, leaseUntil)
    inFlight += claimed.length
    for (const d of claimed) yield* FiberSet.run(attempts, attempt(d))
    return claimed.length
  })

  // the store's wake-ups (pg_notify), when it has them: the pump then need not poll often
  const notified = Option.map(yield* Effect.serviceOption(WebhookWakeups), (w) => w.next)
  const idle = (wake: Queue.Queue<true>, ms: number, also: Option.Option<Effect.Effect<void>> = Option.none()) =>
    Effect.raceAll([Effect.sleep(ms), Effect.asVoid(Queue.take(wake)), ...Option.toArray(also)])

  const guard = (name: string) => <A, E, R>(self: Effect.Effect<A, E, R>) =>
    self.pipe(
      Effect.catchAllCause((cause) =>
        Effect.zipRight(Effect.logError(`webhook ${name} failed; retrying`, cause), Effect.sleep(1_000))
      )
    )

  const pump = Effect.gen(function*() {
    const claimed = yield* pumpOnce
    if (claimed === 0) yield* idle(wakePump, settings.pollIntervalMs, notified)
  }).pipe(guard("pump"), Effect.forever)

  const recorder = Effect.gen(function*() {
    const first = Chunk.toReadonlyArray(yield* Queue.takeBetween(results, 1, 1_000))
    // Let a few more finish: one transaction for many attempts.
    const batch = first.length >= 100 || inFlight <= first.length
      ? first
      : [...first, ...Chunk.toReadonlyArray(yield* Effect.zipRight(Effect.sleep(5), Queue.takeUpTo(results, 1_000)))]
    yield* Effect.gen(function*() {
      const now = yield* nowDate
      const outcome = yield* store.recordAttempts(batch, now, policy, ids.uuidV4)
      if (outcome.disabledEndpoints.length > 0) {
        yield* Effect.logWarning(`webhook endpoints disabled: ${outcome.disabledEndpoints.join(", ")}`)
        yield* Queue.offer(wakeNotifier, true)
      }
    }).pipe(Effect.ensuring(Effect.sync(() => {
      inFlight -= batch.length
    })))
    yield* Queue.offer(wakePump, true)
  }).pipe(guard("recorder"), Effect.forever)

  const notify = (n: ClaimedNotification) => {
    const notice = disabledNotice(n, policy)
    const send: Effect.Effect<string | null, { readonly message: string; readonly retryable: boolean }> =
      n.channel === "email"
        ? Effect.as(mailer.send({ to: n.accountEmail, subject: notice.subject, text: notice.text }), null).pipe(
          Effect.mapError((e) => ({ message: e.message, retryable: true }))
        )
        : n.accountPhone === null || n.accountPhone === ""
        ? Effect.fail(new SystemSmsError({ message: "the account has no phone number", retryable: false }))
        : Effect.map(sms.send({ to: n.accountPhone, text: notice.sms }), (r) => r.messageId)
    return send.pipe(
      Effect.matchEffect({
        onSuccess: (reference) =>
          Effect.flatMap(nowDate, (now) => store.completeNotification(n.id, { _tag: "Sent", reference, now })),
        onFailure: (e) =>
          Effect.gen(function*() {
            const now = yield* nowDate
            const delay = e.retryable ? settings.notificationRetryDelaysMs[n.attempts - 1] : undefined
            yield* Effect.logWarning(`webhook ${n.channel} notification for ${n.endpointId} failed: ${e.message}`)
            yield* store.completeNotification(n.id, {
              _tag: "Failed",
              error: e.message,
              retryAt: delay === undefined ? null : new Date(now.getTime() + delay)
            })
          })
      })
    )
  }

  const notifier = Effect.gen(function*() {
    const now = yield* nowDate
    const due = yield* store.claimNotifications(20, now, new Date(now.getTime() + 5 * 60_000))
    yield* Effect.forEach(due, notify, { concurrency: 4, discard: true })
    if (due.length === 0) yield* idle(wakeNotifier, Math.max(settings.pollIntervalMs, 1_000))
  }).pipe(guard("notifier"), Effect.forever)

  yield* Effect.forkScoped(recorder)
  yield* Effect.forkScoped(pump)
  yield* Effect.forkScoped(notifier)
  // Runs before the fibers above are interrupted: stop claiming, let attempts in flight finish and
  // be recorded (a clean restart then resends nothing); whatever is left resumes after its lease.
  yield* Effect.addFinalizer(() =>
    Effect.gen(function*() {
      stopping = true
      const deadline = Date.now() + settings.shutdownGraceMs
      while (inFlight > 0 && Date.now() < deadline) yield* Effect.sleep(10)
    })
  )

  return WebhookWorkers.of({
    wake: Effect.asVoid(Queue.offer(wakePump, true)),
    inFlight: Effect.sync(() => inFlight)
  })
})

/**
 * Starts the webhook workers for the lifetime of the layer. Needs the store, the HTTP sender, the
 * mailer, the system SMS sender, `Ids` and `WebhookConfig`.
 */
export const layerWebhookWorkers: Layer.Layer<
  WebhookWorkers,
  never,
  WebhookStore | WebhookSender | WebhookConfig | Ids | Mailer | SystemSms
> = Layer.scoped(WebhookWorkers, makeWebhookWorkers)

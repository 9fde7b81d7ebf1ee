/**
 * State machines (spec §3, decisions.md §14, §18, §19, §23): messages, campaigns, sender IDs and
 * webhook endpoints. Each machine is data (a transition table) plus a function
 * `(state, event) => Either<next, IllegalTransition>`. Time is always an argument; timestamps set on
 * entry never move backwards.
 */
import { Either, Schema } from "effect"
import { IllegalTransition, ValidationFailed } from "./errors.js"
import {
  applyWebhookAttempt,
  defaultWebhookRetryPolicy,
  type WebhookEndpointHealth,
  type WebhookEndpointHealthChange,
  type WebhookRetryPolicy
} from "./webhook.js"

/** A transition table: for each state, the events it accepts and the state each leads to. */
export type TransitionTable<S extends string, E extends string> = {
  readonly [K in S]: { readonly [V in E]?: S }
}

const DISPLAY_NAMES: Record<string, string> = {
  message: "message",
  campaign: "campaign",
  sender_id: "sender ID",
  webhook_endpoint: "webhook endpoint"
}

const illegal = (machine: string, from: string, event: string) =>
  new IllegalTransition({
    message: `A ${DISPLAY_NAMES[machine] ?? machine} in state ${from} cannot take the event ${event}.`,
    machine,
    from,
    event
  })

const step = <S extends string, E extends string>(
  machine: string,
  table: TransitionTable<S, E>,
  state: S,
  event: E
): Either.Either<S, IllegalTransition> => {
  const row = Object.hasOwn(table, state) ? table[state] : undefined
  const next = row !== undefined && Object.hasOwn(row, event) ? row[event] : undefined
  return next === undefined ? Either.left(illegal(machine, state, event)) : Either.right(next)
}

/** Every `[from, event, to]` triple of a table, for documentation and tests. */
export const transitionsOf = <S extends string, E extends string>(
  table: TransitionTable<S, E>
): ReadonlyArray<readonly [S, E, S]> => {
  const out: Array<readonly [S, E, S]> = []
  for (const from in table) {
    const row: { readonly [V in E]?: S } = table[from]
    for (const event in row) {
      const to = row[event]
      if (to !== undefined) out.push([from, event, to])
    }
  }
  return out
}

/**
 * The states from which `event` is allowed, in the table's order: e.g.
 * `sourcesOf(messageTransitions, "fail")` is `["queued", "processing", "sent"]`. Adapters derive
 * their conditions from it (a SQL `status IN (…)`), so the table stays the only home of a transition.
 */
export const sourcesOf = <S extends string, E extends string>(
  table: TransitionTable<S, E>,
  event: E
): ReadonlyArray<S> => transitionsOf(table).filter(([, e]) => e === event).map(([from]) => from)

/** The states that take no event (final states), in the table's order. */
export const finalStatesOf = <S extends string, E extends string>(table: TransitionTable<S, E>): ReadonlyArray<S> => {
  const out: Array<S> = []
  for (const state in table) if (Object.keys(table[state]).length === 0) out.push(state)
  return out
}

// ---------------------------------------------------------------------------------------------
// Timestamps
// ---------------------------------------------------------------------------------------------

/**
 * The moment to record for an entry at `now` that must not precede any of `previous` (clocks of two
 * workers may disagree): the latest of them. `null`/`undefined` entries are ignored.
 */
export const monotonicStamp = (now: Date, ...previous: ReadonlyArray<Date | null | undefined>): Date => {
  let t = now.getTime()
  for (const p of previous) if (p != null && p.getTime() > t) t = p.getTime()
  return t === now.getTime() ? now : new Date(t)
}

// ---------------------------------------------------------------------------------------------
// Messages (decisions.md §19)
// ---------------------------------------------------------------------------------------------

/** The status of a message: `scheduled` → `queued` → `processing` → `sent` → `delivered` or `failed`. */
export const MessageStatus = Schema.Literal("scheduled", "queued", "processing", "sent", "delivered", "failed")
export type MessageStatus = typeof MessageStatus.Type

/**
 * - `due`: the schedule time arrived (scheduled → queued)
 * - `claim`: a worker took the message to submit it (queued → processing)
 * - `release`: the worker released it or its lease expired, to be retried (processing → queued)
 * - `accept`: a provider accepted it (processing → sent)
 * - `deliver`: the carrier confirmed delivery (sent → delivered)
 * - `fail`: final failure (queued | processing | sent → failed)
 * - `cancel`: its campaign was cancelled before the schedule time (scheduled → failed, units refunded)
 */
export const MessageEvent = Schema.Literal("due", "claim", "release", "accept", "deliver", "fail", "cancel")
export type MessageEvent = typeof MessageEvent.Type

/** The message state machine: the status each event leads to from each status. */
export const messageTransitions: TransitionTable<MessageStatus, MessageEvent> = {
  scheduled: { due: "queued", cancel: "failed" },
  queued: { claim: "processing", fail: "failed" },
  processing: { accept: "sent", release: "queued", fail: "failed" },
  sent: { deliver: "delivered", fail: "failed" },
  delivered: {},
  failed: {}
}

/** Final message states: they accept no event (a repeated delivery receipt is an IllegalTransition). */
export const isFinalMessageStatus = (status: MessageStatus): status is "delivered" | "failed" =>
  status === "delivered" || status === "failed"

/** The status a message moves to on `event`, or `IllegalTransition` when the event is not allowed from `status`. */
export const transitionMessage = (
  status: MessageStatus,
  event: MessageEvent
): Either.Either<MessageStatus, IllegalTransition> => step("message", messageTransitions, status, event)

/** The lifecycle timestamps of a message (null until the step happened). */
export interface MessageTimestamps {
  readonly queued_at: Date | null
  readonly sent_at: Date | null
  readonly delivered_at: Date | null
  readonly failed_at: Date | null
}

/** A message's status with its lifecycle timestamps. */
export interface MessageLifecycle extends MessageTimestamps {
  readonly status: MessageStatus
}

/**
 * Applies an event and sets the timestamp of the state entered, at `now` but never before an earlier
 * stamp: `queued_at` (first entry only: a retry after `release` keeps the original), `sent_at`,
 * `delivered_at`, `failed_at`. `processing` has no stamp.
 */
export const advanceMessage = (
  message: MessageLifecycle,
  event: MessageEvent,
  now: Date
): Either.Either<MessageLifecycle, IllegalTransition> =>
  Either.map(transitionMessage(message.status, event), (status) => {
    const latest = monotonicStamp(now, message.queued_at, message.sent_at, message.delivered_at, message.failed_at)
    switch (status) {
      case "queued":
        return { ...message, status, queued_at: message.queued_at ?? latest }
      case "sent":
        return { ...message, status, sent_at: latest }
      case "delivered":
        return { ...message, status, delivered_at: latest }
      case "failed":
        return { ...message, status, failed_at: latest }
      default:
        return { ...message, status }
    }
  })

/** Status of a newly accepted message: `scheduled` when it has a schedule time, else `queued`. */
export const initialMessageStatus = (scheduledAt: Date | null | undefined): "scheduled" | "queued" =>
  scheduledAt == null ? "queued" : "scheduled"

// ---------------------------------------------------------------------------------------------
// Campaigns (spec §3.2, decisions.md §14)
// ---------------------------------------------------------------------------------------------

/**
 * `scheduled` (a future `scheduled_at` was given) → `queued` when due; `queued` → `completed` once
 * every message of the campaign reached a final state (delivered or failed); `scheduled` →
 * `cancelled` when its owner cancels it before the schedule time (its messages fail, units refunded).
 */
export const CampaignStatus = Schema.Literal("scheduled", "queued", "completed", "cancelled")
export type CampaignStatus = typeof CampaignStatus.Type

/** An event of the campaign state machine: `due` (a scheduled campaign starts), `complete` or `cancel`. */
export const CampaignEvent = Schema.Literal("due", "complete", "cancel")
export type CampaignEvent = typeof CampaignEvent.Type

/** The campaign state machine: the status each event leads to from each status. */
export const campaignTransitions: TransitionTable<CampaignStatus, CampaignEvent> = {
  scheduled: { due: "queued", cancel: "cancelled" },
  queued: { complete: "completed" },
  completed: {},
  cancelled: {}
}

/** The status a campaign moves to on `event`, or `IllegalTransition`. */
export const transitionCampaign = (
  status: CampaignStatus,
  event: CampaignEvent
): Either.Either<CampaignStatus, IllegalTransition> => step("campaign", campaignTransitions, status, event)

/** Status of a new campaign (spec §3.2). */
export const initialCampaignStatus = (scheduledAt: Date | null | undefined): "scheduled" | "queued" =>
  scheduledAt == null ? "queued" : "scheduled"

/** True when a queued campaign should take `complete`: all its queued messages are final. */
export const isCampaignComplete = (counts: { readonly queued_count: number; readonly final_count: number }) =>
  counts.final_count >= counts.queued_count

/**
 * Where a campaign is, as its owner follows it: `scheduled` (waiting for its time), `sending` (some
 * of its accepted messages are not final yet), `finished` (every accepted message delivered or
 * failed — also when none was accepted), `cancelled`. Derived from the stored status and the
 * campaign's messages per status, so it is right the moment the last receipt lands.
 */
export type CampaignStage = "scheduled" | "sending" | "finished" | "cancelled"

/** The stage of a campaign from its stored status, accepted count and messages per status. */
export const campaignStageOf = (campaign: {
  readonly status: string
  readonly queued_count: number
  readonly delivery: Readonly<Record<string, number>>
}): CampaignStage => {
  if (campaign.status === "cancelled") return "cancelled"
  if (campaign.status === "scheduled") return "scheduled"
  const final_count = Object.entries(campaign.delivery).reduce(
    (n, [status, count]) => Schema.is(MessageStatus)(status) && isFinalMessageStatus(status) ? n + count : n,
    0
  )
  return campaign.status === "completed" || isCampaignComplete({ queued_count: campaign.queued_count, final_count })
    ? "finished"
    : "sending"
}

// ---------------------------------------------------------------------------------------------
// Sender IDs (decisions.md §18)
// ---------------------------------------------------------------------------------------------

/** The status of a sender-ID record: `pending`, `approved`, `rejected` or `suspended`. */
export const SenderIdStatus = Schema.Literal("pending", "approved", "rejected", "suspended")
export type SenderIdStatus = typeof SenderIdStatus.Type

/** Operator actions. A rejection carries its reason (required, non-blank). */
export type SenderIdEvent =
  | { readonly type: "approve" }
  | { readonly type: "reject"; readonly reason: string }
  | { readonly type: "suspend"; readonly reason?: string | undefined }
  | { readonly type: "reinstate" }

/** The sender-ID state machine (decisions §18): the status each operator decision leads to. */
export const senderIdTransitions: TransitionTable<SenderIdStatus, SenderIdEvent["type"]> = {
  pending: { approve: "approved", reject: "rejected" },
  approved: { suspend: "suspended" },
  suspended: { reinstate: "approved" },
  rejected: {}
}

/**
 * `pending → approved | rejected`, `approved → suspended`, `suspended → approved` (`reinstate`).
 * A rejection without a reason is a ValidationFailed on `reason`.
 */
export const transitionSenderId = (
  status: SenderIdStatus,
  event: SenderIdEvent
): Either.Either<SenderIdStatus, IllegalTransition | ValidationFailed> => {
  if (event.type === "reject" && (typeof event.reason !== "string" || event.reason.trim() === "")) {
    return Either.left(
      new ValidationFailed({
        message: "A rejection requires a reason.",
        errors: { reason: ["The reason field is required."] }
      })
    )
  }
  return step("sender_id", senderIdTransitions, status, event.type)
}

/** `is_usable` of spec §2.6: sending is allowed only with an approved sender ID. */
export const isSenderIdUsable = (status: SenderIdStatus): boolean => status === "approved"

// ---------------------------------------------------------------------------------------------
// Webhook endpoints (spec §6 rule 5, decisions.md §23)
// ---------------------------------------------------------------------------------------------

/** The status of a webhook endpoint: `enabled` or `disabled` (after too many consecutive failures). */
export const WebhookEndpointStatus = Schema.Literal("enabled", "disabled")
export type WebhookEndpointStatus = typeof WebhookEndpointStatus.Type

/**
 * - `attempt_succeeded` / `attempt_failed`: outcome of one delivery attempt (the consecutive-failure
 *   rule of webhook.ts: the 10th consecutive failure disables the endpoint)
 * - `enable`: an operator re-enables a disabled endpoint (resets the count)
 * - `disable`: an operator disables an enabled endpoint
 */
export const WebhookEndpointEvent = Schema.Literal("attempt_succeeded", "attempt_failed", "enable", "disable")
export type WebhookEndpointEvent = typeof WebhookEndpointEvent.Type

/** The status an endpoint's health gives it. */
export const webhookEndpointStatus = (health: WebhookEndpointHealth): WebhookEndpointStatus =>
  health.disabled ? "disabled" : "enabled"

/**
 * Next health of an endpoint. Attempt outcomes are accepted in both states (a delivery in flight may
 * finish after the endpoint was disabled; it never re-enables it). `justDisabled` is true exactly on
 * the failure that disabled it: notify the account then.
 */
export const transitionWebhookEndpoint = (
  health: WebhookEndpointHealth,
  event: WebhookEndpointEvent,
  policy: Pick<WebhookRetryPolicy, "disableAfterConsecutiveFailures"> = defaultWebhookRetryPolicy
): Either.Either<WebhookEndpointHealthChange, IllegalTransition> => {
  const from = webhookEndpointStatus(health)
  switch (event) {
    case "attempt_succeeded":
      return Either.right(applyWebhookAttempt(health, "success", policy))
    case "attempt_failed":
      return Either.right(applyWebhookAttempt(health, "failure", policy))
    case "enable":
      return health.disabled
        ? Either.right({ consecutiveFailures: 0, disabled: false, justDisabled: false })
        : Either.left(illegal("webhook_endpoint", from, event))
    case "disable":
      return health.disabled
        ? Either.left(illegal("webhook_endpoint", from, event))
        : Either.right({ consecutiveFailures: health.consecutiveFailures, disabled: true, justDisabled: false })
  }
}

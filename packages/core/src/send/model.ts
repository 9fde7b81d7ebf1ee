/**
 * What the send use cases take and answer: the caller, outcomes, campaign data, the refusals (`SendError`), the settings (`SendConfig`) and the endpoint names of the idempotency fingerprint.
 */
import type {
  CountryCode,
  DuplicateContentRateLimited,
  EmptyMessage,
  Encoding,
  MessageTooLong,
  PartSizing,
  SpamPolicy
} from "@tuma/domain"
import {
  AccountInactive,
  CountryNotAvailable,
  defaultSpamPolicy,
  DuplicateRecipient,
  IDEMPOTENCY_TTL,
  IdempotencyKeyReused,
  InsufficientBalance,
  NoProviderRoute,
  ProviderCreditExhausted,
  RecipientOptedOut,
  RouteNotVerified,
  SenderIdNotApproved,
  SpamPolicyViolation,
  TagExpressionInvalid,
  ValidationFailed
} from "@tuma/domain"
import { Context, Duration } from "effect"
import type { Channel } from "../ports/SendStore.js"

// ---------------------------------------------------------------------------------------------
// Inputs, outputs, settings
// ---------------------------------------------------------------------------------------------

/** Who sends: resolved by authentication. */
export interface SendCaller {
  readonly accountId: string
  readonly apiKeyId: string | null
  /** `test` = sandbox key (decisions §12). */
  readonly mode: "live" | "test"
  /** `api` (default) or `web` (portal). */
  readonly channel?: Channel | undefined
  /** The `Idempotency-Key` header, if given. */
  readonly idempotencyKey?: string | undefined
}

/** What a send answers. The HTTP layer puts `data` in the envelope, `idempotent_replay: true` at
 * the top level when set, and `mode: "sandbox"` when `sandbox`. */
export interface SendOutcome<A> {
  readonly data: A
  readonly idempotent_replay: boolean
  readonly sandbox: boolean
}

/** A skipped recipient (decisions §15). */
export interface CampaignFailure {
  readonly recipient: string
  readonly index: number
  readonly error_code: string
  readonly reason: string
}

/** Campaign fields of spec §2.4 shared by v1 and v2, plus what was charged. */
export interface CampaignData {
  readonly uid: string
  readonly name: string
  readonly status: "queued" | "scheduled"
  readonly recipient_count: number
  readonly queued_count: number
  readonly failed_count: number
  readonly scheduled_at: string | null
  readonly failures: ReadonlyArray<CampaignFailure>
  /** Total units charged. */
  readonly units: number
  /** Units charged per destination country (ISO2), sorted by country. */
  readonly charges: ReadonlyArray<{ readonly country: string; readonly units: number }>
  /** spec §2.9. v1: the text's encoding. v2: the campaign's: `final` Unicode if any message is,
   * `segments`/`characters` the largest, `changes` summed over the messages. */
  readonly encoding: Encoding
}

/** The `data` of a bulk-v1 answer: the campaign and one result per accepted recipient. */
export interface CampaignV1 extends CampaignData {
  /** One entry per queued/scheduled recipient. */
  readonly results: ReadonlyArray<{ readonly recipient: string; readonly status: string; readonly message_uid: string }>
}

/** The `data` of a bulk-v2 answer: the campaign and each accepted recipient's rendered, priced message. */
export interface CampaignV2 extends CampaignData {
  /** One entry per queued/scheduled recipient with its own price. */
  readonly messages: ReadonlyArray<{
    readonly message_uid: string
    readonly recipient: string
    readonly units: number
    readonly status: string
    readonly encoding: Encoding["final"]
  }>
}

/** Errors of a refused send: all `DEFINITELY_NOT_ACCEPTED`. */
export type SendError =
  | ValidationFailed
  | AccountInactive
  | SenderIdNotApproved
  | CountryNotAvailable
  | RouteNotVerified
  | RecipientOptedOut
  | SpamPolicyViolation
  | NoProviderRoute
  | ProviderCreditExhausted
  | InsufficientBalance
  | IdempotencyKeyReused
  | EmptyMessage
  | MessageTooLong
  | TagExpressionInvalid
  | DuplicateRecipient
  | DuplicateContentRateLimited

/** Settings of the send use cases (`SendConfig`): part sizing, spam policy, idempotency lifetime, default country. */
export interface SendSettings {
  /** decisions §9 `pricing.partSizing`. */
  readonly partSizing: PartSizing
  /** Base spam policy; the `spam_rules` rows (`blocked_phrase`, `blocked_domain`) are added to it. */
  readonly spamPolicy: SpamPolicy
  readonly idempotencyTtl: Duration.Duration
  /** Country whose national format (leading 0) recipients may use; none by default. */
  readonly defaultCountry: CountryCode | undefined
  /** decisions §7: the same (sender ID, text) at most this many times per window (default 30). */
  readonly duplicateLimit: number
  /** decisions §7: the window of the duplicate-content limit (default 10 minutes). */
  readonly duplicateWindow: Duration.Duration
  /**
   * How long a single send may reuse the store's snapshot of (account, sender ID, country) —
   * `send/snapshotCache.ts`; default 1000 ms, 0 reads it on every send.
   */
  readonly snapshotReuseMillis?: number | undefined
}

/** Settings of the send use cases; override with `Layer.succeed(SendConfig, {...})`. */
export class SendConfig extends Context.Reference<SendConfig>()("@tuma/core/SendConfig", {
  defaultValue: (): SendSettings => ({
    partSizing: "single",
    spamPolicy: defaultSpamPolicy,
    idempotencyTtl: IDEMPOTENCY_TTL,
    defaultCountry: undefined,
    duplicateLimit: 30,
    duplicateWindow: Duration.minutes(10)
  })
}) {}

/** The endpoint names that enter the idempotency fingerprint (aliases share them). */
export const SEND_ENDPOINTS = {
  single: "POST /v1/sms/messages",
  bulkV1: "POST /v1/sms/send-bulk",
  bulkV2: "POST /v2/sms/send-bulk"
} as const

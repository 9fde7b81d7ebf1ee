/**
 * What the send use cases take and answer: the caller, outcomes, campaign data, the refusals (`SendError`), the settings (`SendConfig`) and the endpoint names of the idempotency fingerprint.
 */
import type {
  AccountInactive,
  CountryCode,
  DuplicateContentRateLimited,
  IdempotencyKeyReused,
  PartSizing,
  SpamPolicy,
  ValidationFailed
} from "@tuma/domain"
import { defaultSpamPolicy, IDEMPOTENCY_TTL } from "@tuma/domain"
import { Encoding, EncodingName } from "@tuma/domain/encoding"
import { Context, Duration, Schema } from "effect"
import type { Channel } from "../ports/SendStore.js"
import type { RecipientRefusal } from "./checks.js"

// ---------------------------------------------------------------------------------------------
// Inputs, outputs, settings
// ---------------------------------------------------------------------------------------------

/** Who sends: resolved by authentication. */
export interface SendCaller {
  readonly accountId: string
  readonly apiKeyId: string | null
  /** `test` = sandbox key (decisions §12). */
  readonly mode: "live" | "test"
  /** `api` (default), `web` (portal) or `smpp` (the SMPP server). */
  readonly channel?: Channel | undefined
  /** The SMPP credentials submitting (channel `smpp`): stored on the message, its receipt goes to their binds. */
  readonly smppAccountId?: string | undefined
  /** The SMPP submit asked for intermediate notifications (`registered_delivery` 0x10): stored on the message. */
  readonly smppIntermediate?: boolean | undefined
  /** The `Idempotency-Key` header, if given. */
  readonly idempotencyKey?: string | undefined
  /**
   * The country whose national numbers (`0712 345 678`) this caller may send to: the account's own
   * country for a portal user; none for the API, which takes international numbers (spec §4.2)
   * unless the operator set a default country (`SendConfig.defaultCountry`).
   */
  readonly localCountry?: CountryCode | undefined
  /**
   * The confirmation of an opt-out (two-way SMS): the one message the handset that just sent STOP
   * still gets, so the opt-out check is skipped for it. Set only by the inbound worker.
   */
  readonly optOutNotice?: boolean | undefined
}

/** The country a caller's national numbers are read in: its own, else the server's default. */
export const localCountryOf = (caller: SendCaller, cfg: { readonly defaultCountry: CountryCode | undefined }) =>
  caller.localCountry ?? cfg.defaultCountry

/** What a send answers. The HTTP layer puts `data` in the envelope, `idempotent_replay: true` at
 * the top level when set, and `mode: "sandbox"` when `sandbox`. */
export interface SendOutcome<A> {
  readonly data: A
  readonly idempotent_replay: boolean
  readonly sandbox: boolean
}

const failureFields = {
  recipient: Schema.String,
  index: Schema.Number,
  error_code: Schema.String,
  reason: Schema.String
}

/** A skipped recipient (decisions §15). */
export const CampaignFailure = Schema.Struct(failureFields).annotations({ identifier: "CampaignFailure" })
export interface CampaignFailure extends Schema.Schema.Type<typeof CampaignFailure> {}

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

/** `CampaignData` as a schema (spec §2.4), the fields of the API's `CampaignV1` and `CampaignV2`. */
const campaignFields = {
  uid: Schema.String,
  name: Schema.String,
  status: Schema.Literal("scheduled", "queued"),
  recipient_count: Schema.Number,
  queued_count: Schema.Number,
  failed_count: Schema.Number,
  scheduled_at: Schema.NullOr(Schema.String.annotations({ description: "ISO 8601 timestamp" })),
  failures: Schema.Array(CampaignFailure),
  units: Schema.Number.annotations({ description: "Units charged in total." }),
  charges: Schema.Array(Schema.Struct({ country: Schema.String, units: Schema.Number })).annotations({
    description: "Units charged per destination country."
  }),
  encoding: Encoding.annotations({ identifier: "Encoding" })
}

/** The `data` of a bulk-v1 answer (spec §2.4, v1): the campaign and one result per accepted recipient
 * (one entry per queued/scheduled recipient). Idempotent replays decode the stored answer with it. */
export const CampaignV1 = Schema.Struct({
  ...campaignFields,
  results: Schema.Array(Schema.Struct({
    recipient: Schema.String,
    status: Schema.String,
    message_uid: Schema.String
  }))
}).annotations({ identifier: "CampaignV1" })
export interface CampaignV1 extends Schema.Schema.Type<typeof CampaignV1> {}

/** The `data` of a bulk-v2 answer (spec §2.4, v2): the campaign and each accepted recipient's rendered,
 * priced message (one entry per queued/scheduled recipient with its own price). */
export const CampaignV2 = Schema.Struct({
  ...campaignFields,
  messages: Schema.Array(Schema.Struct({
    message_uid: Schema.String,
    recipient: Schema.String,
    units: Schema.Number,
    status: Schema.String,
    encoding: EncodingName
  }))
}).annotations({ identifier: "CampaignV2" })
export interface CampaignV2 extends Schema.Schema.Type<typeof CampaignV2> {}

/** Errors of a refused send: all `DEFINITELY_NOT_ACCEPTED`. A recipient's refusals (`RecipientRefusal`,
 * the checks over the snapshot) and the refusals of the request as a whole. */
export type SendError =
  | RecipientRefusal
  | ValidationFailed
  | AccountInactive
  | IdempotencyKeyReused
  | DuplicateContentRateLimited

const sendErrorCodeSet = {
  VALIDATION_FAILED: true,
  ACCOUNT_INACTIVE: true,
  IDEMPOTENCY_KEY_REUSED: true,
  DUPLICATE_CONTENT_RATE_LIMITED: true,
  SENDER_ID_NOT_APPROVED: true,
  COUNTRY_NOT_AVAILABLE: true,
  ROUTE_NOT_VERIFIED: true,
  RECIPIENT_OPTED_OUT: true,
  SPAM_POLICY: true,
  NO_PROVIDER_ROUTE: true,
  PROVIDER_CREDIT_EXHAUSTED: true,
  INSUFFICIENT_BALANCE: true,
  EMPTY_MESSAGE: true,
  MESSAGE_TOO_LONG: true,
  TAG_EXPRESSION_INVALID: true,
  DUPLICATE_RECIPIENT: true
} satisfies Record<SendError["error_code"], true>

/** Every `error_code` a send may be refused with (exactly the codes of `SendError`, checked by the compiler). */
export const sendErrorCodes: ReadonlyArray<string> = Object.keys(sendErrorCodeSet)

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

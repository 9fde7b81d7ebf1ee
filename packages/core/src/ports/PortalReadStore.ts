/**
 * Port of the portal's read models that the API has no use case for: the dashboard figures, the
 * campaign history with delivery figures, a message's timeline fields and webhook deliveries, and
 * an endpoint's signing secret (for the test event). Every query takes the account id.
 * Adapter: `@tuma/store-sql/SqlPortalReadStore`.
 */
import type { Effect } from "effect"
import { Context } from "effect"
import type { MessageStatus } from "./SendStore.js"

export type { MessageStatus } from "./SendStore.js"

/** How many of an account's messages were created on one local day and are in one status. */
export interface DayStatusCount {
  /** `YYYY-MM-DD` in the asked time zone. */
  readonly day: string
  readonly status: MessageStatus
  readonly n: number
}

/** The dashboard's figures: credit balance per country, seven days of counts per status, the ten newest failures. */
export interface DashboardRows {
  readonly balances: ReadonlyArray<{
    readonly country: string
    readonly calling_code: string | null
    readonly balance: number
    readonly enabled: boolean
  }>
  /** Counts per local day and status from the first of the seven days on. */
  readonly counts: ReadonlyArray<DayStatusCount>
  readonly failures: ReadonlyArray<{
    readonly id: string
    readonly recipient: string
    readonly sender_id: string
    readonly failure_reason: string | null
    readonly failed_at: Date | null
    readonly created_at: Date
  }>
}

/** A campaign (one send to many recipients) with its acceptance figures and its messages per status. */
export interface CampaignRow {
  readonly id: string
  readonly name: string
  readonly sender_id: string
  readonly api_version: "v1" | "v2"
  readonly api_key_id: string | null
  readonly status: string
  readonly recipient_count: number
  readonly queued_count: number
  readonly failed_count: number
  readonly units: number
  readonly failures: unknown
  readonly scheduled_at: Date | null
  readonly created_at: Date
  /** Messages per status. */
  readonly delivery: Readonly<Record<string, number>>
}

/**
 * The times and outcome fields of one message, for its timeline (created, queued, sent, delivered or
 * failed, receipt).
 */
export interface MessageTimelineRow {
  readonly id: string
  readonly text: string
  readonly country: string
  readonly created_at: Date
  readonly scheduled_at: Date | null
  readonly queued_at: Date | null
  readonly sent_at: Date | null
  readonly delivered_at: Date | null
  readonly failed_at: Date | null
  readonly failure_reason: string | null
  readonly dr_checked_at: Date | null
  readonly dr_status: string | null
  readonly dr_delivery_status: string | null
}

/** A webhook delivery of a message, with every attempt made so far. */
export interface DeliveryWithAttempts {
  readonly id: string
  readonly endpoint_id: string
  readonly event: string
  readonly status: string
  readonly message_id: string
  readonly recipient: string
  readonly attempts: number
  readonly next_attempt_at: Date | null
  readonly last_status: number | null
  readonly last_error: string | null
  readonly completed_at: Date | null
  readonly attempt_log: ReadonlyArray<{
    readonly attempt: number
    readonly attempted_at: Date
    readonly outcome: "success" | "failure"
    readonly response_status: number | null
    readonly latency_ms: number
    readonly error: string | null
  }>
}

/** What duplicating a campaign starts from: its text as written, its sender ID and its recipients' numbers. */
export interface CampaignCopyRow {
  readonly name: string
  readonly sender_id: string
  /** The text as written (v2: the template); null for a campaign accepted before it was kept. */
  readonly message: string | null
  /** Its first message's text (what a campaign without `message` is duplicated with). */
  readonly first_text: string | null
  /** The accepted recipients' numbers, in the order they were accepted. */
  readonly recipients: ReadonlyArray<string>
}

/** The portal's read models: dashboard, campaigns, a message's timeline, webhook deliveries, an endpoint's secret. */
export class PortalReadStore extends Context.Tag("@tuma/core/PortalReadStore")<PortalReadStore, {
  readonly dashboard: (accountId: string, timeZone: string, now: Date) => Effect.Effect<DashboardRows>
  readonly campaigns: (accountId: string, page: number, perPage: number) => Effect.Effect<{
    readonly rows: ReadonlyArray<CampaignRow>
    readonly total: number
  }>
  readonly campaign: (accountId: string, campaignId: string) => Effect.Effect<CampaignRow | undefined>
  readonly messageTimeline: (accountId: string, messageId: string) => Effect.Effect<MessageTimelineRow | undefined>
  readonly campaignCopy: (accountId: string, campaignId: string) => Effect.Effect<CampaignCopyRow | undefined>
  /** The texts of these messages of the account, by id. */
  readonly messageTexts: (
    accountId: string,
    messageIds: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyMap<string, string>>
  readonly deliveries: (
    accountId: string,
    by: { readonly messageId: string } | { readonly endpointId: string },
    limit: number
  ) => Effect.Effect<ReadonlyArray<DeliveryWithAttempts>>
  readonly endpointSecret: (accountId: string, endpointId: string) => Effect.Effect<
    { readonly url: string; readonly secret: string } | undefined
  >
}>() {}

/**
 * What the console's pages read of the console API's answers (`data` of the envelope): only the
 * fields they show, so no answer is `any`.
 */

/** An account of the list and of `GET /accounts/:uid`. */
export interface AccountView {
  readonly uid: string
  readonly name: string
  readonly email: string
  readonly active: boolean
  readonly created_at: string | null
}

/** `POST /accounts`. */
/** Where a mail went: `sent` (the SMTP server took it), `outbox` (no mail server) or `failed`. */
export type MailNotice = "sent" | "outbox" | "failed"

/** What a mail's notice says in a status line (an English key of sw.ts). */
export const mailSaid = (mail: MailNotice | undefined): string =>
  mail === "sent"
    ? "told by e-mail"
    : mail === "outbox"
    ? "not e-mailed: no mail server is configured (the mail is in the Outbox)"
    : "not e-mailed: the mail server refused the mail"

/** An operator role's name (an English key of sw.ts): `reviewer` → "Reviewer". */
export const roleName = (role: string): string => role.charAt(0).toUpperCase() + role.slice(1)

/** A new account and its owner's invitation. */
export interface CreatedAccountView extends AccountView {
  readonly owner_invitation?: { readonly email: string; readonly link: string; readonly mail: MailNotice } | null
}

/** A wallet of an account. */
export interface WalletView {
  readonly wallet_uid: string
  readonly country: string
  readonly balance: number | string
  readonly enabled: boolean
}

/** `GET /accounts/:uid`. */
export interface AccountDetailView {
  readonly account: AccountView
  readonly wallets: ReadonlyArray<WalletView>
  readonly api_keys: ReadonlyArray<{
    readonly uid: string
    readonly name: string
    readonly prefix: string
    readonly mode: string
    readonly status: string
    readonly last_used_at: string | null
  }>
  readonly sender_ids: ReadonlyArray<{
    readonly uid: string
    readonly sender_id: string
    readonly country: string
    readonly status: string
  }>
  readonly recent_messages?: {
    readonly data?: ReadonlyArray<{
      readonly uid: string
      readonly recipient?: string
      readonly to?: string
      readonly sender_id: string
      readonly status: string
      readonly queued_at?: string | null
    }>
  }
}

/** An audit-log entry. */
export interface AuditEntryView {
  readonly id: string
  readonly at: string
  readonly actor_name: string
  readonly actor_kind: string
  readonly action: string
  readonly target: string | null
  /** The target's readable name (an account's name, a carrier's, an operator's e-mail), when it has one. */
  readonly target_name?: string | null
  readonly ip: string | null
  readonly before: unknown
  readonly after: unknown
}

/** A ledger entry of an account. */
export interface LedgerEntryView {
  readonly id: string
  readonly created_at: string
  readonly country: string
  readonly kind: string
  readonly units: number
  readonly balance_after: number | string
  readonly reference: string | null
  readonly reason: string | null
  readonly corrects: string | null
}

/** `POST /accounts/:uid/top-ups` and `…/corrections`. */
export interface CreditChangeView {
  readonly entry: { readonly units: number }
  readonly wallet: { readonly country: string; readonly balance: number | string }
}

/** A market. */
export interface MarketView {
  readonly iso2: string
  readonly name: string
  readonly open: boolean
}

/** `POST /routes/verify`. */
export interface VerifiedRouteView {
  readonly country: string
  readonly phone: string
}

/** An operator. */
export interface OperatorView {
  readonly uid: string
  readonly email: string
  readonly role: string
  readonly status: string
  readonly totp_enrolled: boolean
  readonly last_sign_in_at: string | null
}

/** A provider with its bind state and credit per country. */
export interface ProviderView {
  readonly uid: string
  readonly name: string
  readonly kind: string
  readonly enabled: boolean
  readonly bind_up: number | null
  readonly credits: ReadonlyArray<{ readonly country: string; readonly balance: number | string }>
}

/** `GET /country-routes/:country`. */
export interface CountryRoutesView {
  readonly routes: ReadonlyArray<{
    readonly route_uid: string
    readonly provider_uid: string
    readonly provider_name: string
    readonly provider_enabled: boolean
    readonly credit: number | string
  }>
}

/** A sender ID of the review queue, or as decided. */
export interface SenderIdView {
  readonly uid: string
  readonly sender_id: string
  readonly country: string
  readonly country_name: string
  readonly status: string
  readonly requested_at: string | null
  readonly sample_message: string
  readonly purpose: string | null
  readonly rejection_reason: string | null
  /** The account that asked (its name; null when it is gone). */
  readonly account_uid?: string
  readonly account_name?: string | null
  /** Whether the customer asked for the name to be protected (only they may use it). */
  readonly protection_requested?: boolean
  /** After a decision: where the customer's notice went. */
  readonly customer_mail?: MailNotice
}

/** A document of a sender ID request. */
export interface SenderIdDocumentView {
  readonly uid: string
  readonly filename: string
  readonly content_type: string
  readonly size_bytes: number
}

/** `GET /sender-ids/:uid`. */
export interface SenderIdDetailView {
  readonly sender_id: SenderIdView
  readonly documents: ReadonlyArray<SenderIdDocumentView>
}

/** An opt-out of an account. */
export interface OptOutView {
  readonly recipient: string
}

/** A spam rule. */
export interface SpamRuleView {
  readonly uid: string
  readonly kind: string
  readonly pattern: string
  readonly account_uid: string | null
  readonly enabled?: boolean
}

/** A webhook endpoint. */
export interface WebhookEndpointView {
  readonly id?: string
  readonly uid: string
  readonly url: string
  readonly disabled_at: string | null
}

/** A webhook delivery of an endpoint. */
export interface WebhookDeliveryView {
  readonly id?: string
  readonly uid: string
  readonly event_type?: string
  readonly event?: string
  readonly status: string
  readonly attempts?: number
  readonly attempt_count?: number
}

/** An attempt of a webhook delivery. */
export interface WebhookAttemptView {
  readonly uid?: string
  readonly attempted_at?: string
  readonly created_at: string
  readonly outcome: string
  readonly status_code?: number | null
  readonly response_status?: number | null
}

/** `GET /webhook-deliveries/:uid`. */
export interface WebhookDeliveryDetailView {
  /** The delivery (`webhook.test`: a portal test event, which is not redelivered). */
  readonly delivery?: { readonly event?: string }
  readonly body: string
  readonly attempts?: ReadonlyArray<WebhookAttemptView>
}

/** `POST /webhook-deliveries/:uid/redeliver`. */
export interface RedeliveryView {
  readonly deliveryId: string
}

/** A mail kept in the outbox (not sent: no mail server). */
export interface OutboxMailView {
  readonly uid: string
  readonly to: string
  readonly subject: string
  readonly text: string
  readonly created_at: string
}

/** SMPP credentials (`/smpp-accounts`). */
export interface SmppAccountView {
  readonly uid: string
  readonly account_uid: string
  readonly system_id: string
  readonly mode: "live" | "sandbox"
  readonly throughput: { readonly rate: number; readonly burst: number }
  readonly max_binds: number
  readonly allowed_ips: ReadonlyArray<string>
  readonly status: "active" | "disabled"
}

/** Credentials with their password (created, rotated): shown once. */
export interface SmppAccountWithPassword extends SmppAccountView {
  readonly password: string
}

/** A live SMPP bind (`/smpp-binds`). */
export interface SmppBindView {
  readonly uid: string
  readonly smpp_account_uid: string
  readonly system_id: string
  readonly bind_type: string
  readonly remote_address: string
  readonly since: string
  readonly in_flight: number
  readonly submit_rate: number
  readonly unbind_requested_at: string | null
}

/** An address assigned to an account (`/inbound-numbers`): a number or short code, maybe a keyword with aliases. */
export interface InboundNumberView {
  readonly uid: string
  readonly account_uid: string
  readonly number: string
  readonly keyword: string | null
  readonly aliases: ReadonlyArray<string>
  readonly created_at: string
  readonly updated_at: string
}

/** A message sent to no assigned address. */
export interface UnroutedMessageView {
  readonly uid: string
  readonly from: string
  readonly to: string
  readonly text: string
  readonly received_at: string
}

/** A page of unrouted messages (`/inbound/unrouted`), newest first. */
export interface UnroutedPageView {
  readonly messages: ReadonlyArray<UnroutedMessageView>
  readonly meta: {
    readonly current_page: number
    readonly per_page: number
    readonly total: number
    readonly last_page: number
  }
}

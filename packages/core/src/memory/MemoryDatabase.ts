/**
 * The in-memory database that every memory adapter of the storage ports shares, the way every SQL
 * adapter shares one PostgreSQL database: one `Tables` value holding plain `Map`s (one per table of
 * the SQL schema, keyed by primary key) and the ledger's identity sequence.
 *
 * Atomicity. JavaScript runs one piece of synchronous code at a time, so a port operation that reads
 * and writes the tables inside ONE `transact` call (an `Effect.sync`, never yielding between its
 * read and its write) is a critical section: no other fiber sees it half done. Every operation
 * checks everything that can refuse it (keys, foreign keys, CHECK constraints) before its first
 * write, so a refused operation writes nothing — the rollback of a SQL transaction.
 *
 * Constraints mirror the SQL schema (packages/store-sql/src/migrations): a violation the SQL
 * adapter would meet as a `SqlError` (turned into a defect by `Effect.orDie`) is a defect here too,
 * a `MemoryConstraintViolation`. Ids of `uuid` columns are stored lowercase and compared
 * case-insensitively, as PostgreSQL's `uuid` type does; a malformed id is a defect, as PostgreSQL's
 * "invalid input syntax for type uuid" is.
 *
 * The tables start with the markets seeded by migration 0002 (same ids). Time never comes from
 * here: every timestamp is decided by the caller (Effect's `Clock`), as in the SQL adapters.
 *
 * Why one file of ≈510 lines: the in-memory twin of the schema: one table per SQL table and the
 * synchronous critical section every memory adapter runs in.
 */
import type { DeliveryEventType, WebhookEventType } from "@tuma/domain"
import type { Types } from "effect"
import { Context, Data, Effect, Layer } from "effect"
import type { SpamBuiltinSwitchRow, SpamRuleFullRow } from "../ports/AdminStore.js"
import type { ReceiptRecord } from "../ports/DispatchStore.js"
import type { AccountRow, SenderIdRow } from "../ports/OperatorStore.js"
import type { Channel, Encoding, MarketRow, MessageStatus } from "../ports/SendStore.js"
import type { AttemptRecord } from "../ports/WebhookStore.js"

/** A stored market (country). */
export type MarketRecord = Types.Mutable<MarketRow>

/** A stored account. */
export type AccountRecord = Types.Mutable<AccountRow>

/** A stored API key (its SHA-256, never the key). */
export interface ApiKeyRecord {
  id: string
  account_id: string
  name: string
  key_hash: string
  prefix: string
  mode: "live" | "test"
  scopes: ReadonlyArray<string>
  allowed_ips: ReadonlyArray<string>
  expires_at: Date | null
  revoked_at: Date | null
  last_used_at: Date | null
  created_at: Date
}

/** A stored verified route (account × market). */
export interface VerifiedRouteRecord {
  id: string
  account_id: string
  market_id: string
  phone: string
  verified_at: Date
}

/** A stored credit wallet (account × market); `balance` never goes below 0. */
export interface WalletRecord {
  id: string
  account_id: string
  market_id: string
  balance: number
  enabled: boolean
  created_at: Date
  updated_at: Date
}

/** One wallet ledger entry; `id` comes from the ledger's identity sequence. */
export interface LedgerRecord {
  id: number
  wallet_id: string
  account_id: string
  kind: "purchase" | "debit" | "refund" | "adjustment"
  units: number
  balance_after: number
  /** `numeric(14, 2)` as text, e.g. `"20000.00"`. */
  amount: string | null
  currency: string | null
  message_id: string | null
  campaign_id: string | null
  reference: string | null
  /** A correction's reason (0740). */
  reason: string | null
  /** The ledger row a correction corrects (0740). */
  corrects_id: number | null
  created_at: Date
}

/** A stored sender-ID record (request and grant at once). */
export interface SenderIdRecord extends Types.Mutable<SenderIdRow> {
  protection_requested: boolean
  rejection_reason: string | null
  suspension_reason: string | null
}

/** A stored document requirement of sender-ID requests. */
export interface RequirementRecord {
  id: string
  market_id: string | null
  name: string
  is_required: boolean
  accepted_formats: ReadonlyArray<string>
  max_size_kb: number
  active: boolean
  created_at: Date
}

/** A stored sender-ID document, with its bytes. */
export interface DocumentRecord {
  id: string
  sender_id_id: string
  requirement_id: string | null
  kind: "requirement" | "protection"
  filename: string
  content_type: string
  size_bytes: number
  content: Uint8Array
  created_at: Date
}

/** A stored provider (carrier); `config` is a JSON copy of what was written. */
export interface ProviderRecord {
  id: string
  name: string
  kind: string
  config: unknown
  enabled: boolean
  created_at: Date
}

/** What a provider still lets us send to a market, in SMS units (never below 0). */
export interface ProviderCreditRecord {
  provider_id: string
  market_id: string
  balance: number
  updated_at: Date
}

/** A route to a market through a provider, tried in ascending priority. */
export interface ProviderRouteRecord {
  id: string
  market_id: string
  provider_id: string
  priority: number
  enabled: boolean
  created_at: Date
}

/** A stored campaign (bulk send). */
export interface CampaignRecord {
  id: string
  account_id: string
  api_key_id: string | null
  api_version: "v1" | "v2"
  name: string
  sender_id: string
  status: string
  recipient_count: number
  queued_count: number
  failed_count: number
  units: number
  /** A JSON copy of the failures written. */
  failures: unknown
  scheduled_at: Date | null
  created_at: Date
  updated_at: Date
}

/** A stored message: every column of the SQL `messages` table. */
export interface MessageRecord {
  id: string
  account_id: string
  api_key_id: string | null
  campaign_id: string | null
  market_id: string
  country: string
  recipient: string
  sender_id: string
  text: string
  encoding: Encoding
  parts: number
  units: number
  channel: Channel
  status: MessageStatus
  idempotency_key: string | null
  provider_id: string | null
  provider_message_id: string | null
  provider_ref: string | null
  created_at: Date
  scheduled_at: Date | null
  queued_at: Date | null
  sent_at: Date | null
  delivered_at: Date | null
  failed_at: Date | null
  failure_reason: string | null
  failure_context: unknown
  dr_checked_at: Date | null
  dr_status: string | null
  dr_delivery_status: string | null
  updated_at: Date
}

/** A message waiting in the dispatch queue (the hand-off to delivery). */
export interface DispatchQueueRecord {
  message_id: string
  account_id: string
  available_at: Date
  attempts: number
  lease_owner: string | null
  lease_until: Date | null
  last_error: string | null
  created_at: Date
}

/** One part of a multi-part message as its provider took it (`message_parts`). */
export interface MessagePartRecord {
  message_id: string
  part_index: number
  provider_id: string
  provider_message_id: string | null
  provider_ref: string | null
  state: "enroute" | "delivered" | "failed" | "unknown"
  delivery_status: string | null
  error_code: string | null
  failure_reason: string | null
  updated_at: Date
}

/** An `Unknown` submit waiting for reconciliation until `deadline` (`dispatch_reconcile`). */
export interface DispatchReconcileRecord {
  message_id: string
  provider_id: string
  reference: string
  reason: string
  deadline: Date
  created_at: Date
}

/** A delivery worker's liveness (`dispatch_workers`); times from the database clock. */
export interface DispatchWorkerRecord {
  owner: string
  started_at: Date
  heartbeat_at: Date
}

/** A stored webhook endpoint of an API key, with its signing secret. */
export interface WebhookEndpointRecord {
  id: string
  account_id: string
  api_key_id: string
  url: string
  secret: string
  enabled: boolean
  consecutive_failures: number
  disabled_at: Date | null
  disabled_reason: string | null
  /** The events it is subscribed to (the twin of `webhook_endpoints.events`). */
  events: ReadonlyArray<WebhookEventType>
  created_at: Date
  updated_at: Date
}

/** One webhook delivery (event × endpoint), the queue the webhook workers drain. */
export interface WebhookDeliveryRecord {
  id: string
  endpoint_id: string
  message_id: string
  event: DeliveryEventType
  status: "pending" | "succeeded" | "failed" | "skipped"
  attempts: number
  next_attempt_at: Date
  final_at: Date
  last_status: number | null
  last_error: string | null
  redelivery_of: string | null
  created_at: Date
  updated_at: Date
  completed_at: Date | null
  /** The body posted, for a recorded test event (`webhook.test`). */
  payload?: string
}

/** One HTTP attempt of a webhook delivery, as the port records it; `id` from the table's identity. */
export interface WebhookAttemptRecord extends AttemptRecord {
  readonly id: number
}

/** A notice (e-mail or SMS) owed to an account whose endpoint was disabled. */
export interface WebhookNotificationRecord {
  id: string
  endpoint_id: string
  account_id: string
  channel: "email" | "sms"
  status: "pending" | "sent" | "failed"
  attempts: number
  next_attempt_at: Date
  reference: string | null
  last_error: string | null
  created_at: Date
  sent_at: Date | null
}

/** A stored idempotency record; `response` is a JSON copy of the first answer. */
export interface IdempotencyRecordRow {
  account_id: string
  key: string
  endpoint: string
  fingerprint: string
  response: unknown
  created_at: Date
  expires_at: Date
}

/** A stored opt-out (account × recipient). */
export interface OptOutRecord {
  account_id: string
  recipient: string
  reason: string | null
  created_at: Date
}

/** A stored spam rule (`account_id` null: every account). */
export type SpamRuleRecord = Types.Mutable<SpamRuleFullRow>

/** An operator's switch of one built-in spam entry. */
export type SpamBuiltinSwitchRecord = Types.Mutable<SpamBuiltinSwitchRow>

/** Every table of the in-memory database, keyed by primary key (composite keys joined by `key`). */
export interface Tables {
  readonly markets: Map<string, MarketRecord>
  readonly accounts: Map<string, AccountRecord>
  readonly apiKeys: Map<string, ApiKeyRecord>
  readonly verifiedRoutes: Map<string, VerifiedRouteRecord>
  readonly wallets: Map<string, WalletRecord>
  /** In insertion (= id) order. */
  readonly walletLedger: Array<LedgerRecord>
  readonly senderIds: Map<string, SenderIdRecord>
  readonly senderIdRequirements: Map<string, RequirementRecord>
  readonly senderIdDocuments: Map<string, DocumentRecord>
  readonly providers: Map<string, ProviderRecord>
  /** Keyed `key(provider_id, market_id)`. */
  readonly providerCredits: Map<string, ProviderCreditRecord>
  readonly providerRoutes: Map<string, ProviderRouteRecord>
  readonly campaigns: Map<string, CampaignRecord>
  readonly messages: Map<string, MessageRecord>
  readonly dispatchQueue: Map<string, DispatchQueueRecord>
  /** Keyed `key(message_id, part_index)`. */
  readonly messageParts: Map<string, MessagePartRecord>
  readonly dispatchReconcile: Map<string, DispatchReconcileRecord>
  /** `delivery_receipts_pending`: receipts that matched no part yet, in arrival order. */
  readonly pendingReceipts: Array<ReceiptRecord>
  /** `dispatch_rate`: the next free send slot of a provider, in epoch ms. */
  readonly dispatchRate: Map<string, number>
  readonly dispatchWorkers: Map<string, DispatchWorkerRecord>
  readonly webhookEndpoints: Map<string, WebhookEndpointRecord>
  readonly webhookDeliveries: Map<string, WebhookDeliveryRecord>
  /** In insertion (= id) order. */
  readonly webhookAttempts: Array<WebhookAttemptRecord>
  readonly webhookNotifications: Map<string, WebhookNotificationRecord>
  /** Keyed `key(account_id, key)`. */
  readonly idempotencyRecords: Map<string, IdempotencyRecordRow>
  /** Keyed `key(account_id, recipient)`. */
  readonly optOuts: Map<string, OptOutRecord>
  readonly spamRules: Map<string, SpamRuleRecord>
  /** Keyed `key(kind, pattern)`. */
  readonly spamBuiltinSwitches: Map<string, SpamBuiltinSwitchRecord>
  /** The last id the wallet ledger's identity sequence handed out. */
  ledgerSequence: number
  /** The last number handed to a webhook delivery the final-state "trigger" wrote (its uuid's tail). */
  webhookDeliverySequence: number
  /** Moved by every write of a `dispatch_queue` row (the memory twin of the `tuma_dispatch` NOTIFY). */
  dispatchVersion: number
  /**
   * `settings_version` (migration 0060): moved by every write to a table some process caches
   * (providers, provider routes, markets, spam rules, accounts, API keys but their `last_used_at`).
   */
  settingsVersion: number
}

/** The markets migration 0002 seeds (same fixed ids): Tanzania open, its neighbours closed. */
export const SEED_MARKETS: ReadonlyArray<MarketRow> = [
  { id: "0b6f3c1e-5a2d-4c7e-9f10-2d5e8a7b1c01", iso2: "TZ", calling_code: "255", name: "Tanzania", open: true },
  { id: "0b6f3c1e-5a2d-4c7e-9f10-2d5e8a7b1c02", iso2: "KE", calling_code: "254", name: "Kenya", open: false },
  { id: "0b6f3c1e-5a2d-4c7e-9f10-2d5e8a7b1c03", iso2: "UG", calling_code: "256", name: "Uganda", open: false },
  { id: "0b6f3c1e-5a2d-4c7e-9f10-2d5e8a7b1c04", iso2: "RW", calling_code: "250", name: "Rwanda", open: false }
]

/** Fresh tables holding only the seeded markets. */
export const makeTables = (): Tables => ({
  markets: new Map(SEED_MARKETS.map((m) => [m.id, { ...m }])),
  accounts: new Map(),
  apiKeys: new Map(),
  verifiedRoutes: new Map(),
  wallets: new Map(),
  walletLedger: [],
  senderIds: new Map(),
  senderIdRequirements: new Map(),
  senderIdDocuments: new Map(),
  providers: new Map(),
  providerCredits: new Map(),
  providerRoutes: new Map(),
  campaigns: new Map(),
  messages: new Map(),
  dispatchQueue: new Map(),
  messageParts: new Map(),
  dispatchReconcile: new Map(),
  pendingReceipts: [],
  dispatchRate: new Map(),
  dispatchWorkers: new Map(),
  webhookEndpoints: new Map(),
  webhookDeliveries: new Map(),
  webhookAttempts: [],
  webhookNotifications: new Map(),
  idempotencyRecords: new Map(),
  optOuts: new Map(),
  spamRules: new Map(),
  spamBuiltinSwitches: new Map(),
  ledgerSequence: 0,
  webhookDeliverySequence: 0,
  dispatchVersion: 0,
  settingsVersion: 1
})

/**
 * What the SQL schema would have refused (a duplicate key, a missing referenced row, a failed CHECK,
 * a malformed uuid): thrown inside `transact`, so the operation is a defect and wrote nothing.
 */
export class MemoryConstraintViolation extends Data.TaggedError("MemoryConstraintViolation")<{
  readonly table: string
  readonly message: string
}> {}

/** The service: the tables and the one way to use them. */
export interface MemoryDatabaseService {
  /** The tables. Read and write them only inside `transact`. */
  readonly tables: Tables
  /**
   * Runs `f` as one critical section (`Effect.sync`: nothing else runs until it returns). `f` must
   * check before it writes; what it throws becomes a defect.
   */
  readonly transact: <A>(f: (tables: Tables) => A) => Effect.Effect<A>
  /**
   * Calls `listener` after every `transact` that moved `settingsVersion` (the memory NOTIFY of
   * settings changes); answers the unsubscribe.
   */
  readonly onSettingsChanged: (listener: () => void) => () => void
  /** Calls `listener` after every `transact` that queued messages for dispatch; answers the unsubscribe. */
  readonly onDispatchQueued: (listener: () => void) => () => void
}

/** Builds a database over fresh tables (seeded markets only). */
export const makeMemoryDatabase = (): MemoryDatabaseService => {
  const tables = makeTables()
  const listeners = new Set<() => void>()
  const dispatchListeners = new Set<() => void>()
  const subscribe = (set: Set<() => void>) => (listener: () => void) => {
    set.add(listener)
    return () => void set.delete(listener)
  }
  return {
    tables,
    transact: (f) =>
      Effect.sync(() => {
        const before = tables.settingsVersion
        const queuedBefore = tables.dispatchVersion
        const result = f(tables)
        if (tables.settingsVersion !== before) { for (const listener of listeners) listener() }
        if (tables.dispatchVersion !== queuedBefore) { for (const listener of dispatchListeners) listener() }
        return result
      }),
    onSettingsChanged: subscribe(listeners),
    onDispatchQueued: subscribe(dispatchListeners)
  }
}

/** The shared in-memory tables of the memory adapters (one per `MemoryDatabase.layer` build). */
export class MemoryDatabase extends Context.Tag("@tuma/core/MemoryDatabase")<MemoryDatabase, MemoryDatabaseService>() {
  /** A fresh, empty database (markets seeded) each time the layer is built. */
  static readonly layer: Layer.Layer<MemoryDatabase> = Layer.sync(MemoryDatabase, makeMemoryDatabase)
}

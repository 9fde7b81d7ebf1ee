/**
 * `DeliveryProbe`: what the delivery and webhook contract suites read or write beside the ports
 * under test (`DispatchStore`, `WebhookStore`) — a message's columns after a batch, the wallet's
 * refunds, parts, pending receipts, the webhook deliveries a final state wrote, a message moved to
 * a final state by hand — once per kind of store (`DeliveryProbe.sql`, `DeliveryProbe.memory`), so
 * the suites run unchanged on every driver.
 */
import { SqlClient } from "@effect/sql"
import { Memory } from "@tuma/core"
import { Context, Effect, Layer } from "effect"
import { MARKET_IDS } from "../src/migrations/0002_markets.js"

/** The columns of a message the delivery suites look at. */
export interface DeliveredMessage {
  readonly id: string
  readonly status: string
  readonly recipient: string
  readonly provider_id: string | null
  readonly provider_message_id: string | null
  readonly queued_at: Date | null
  readonly sent_at: Date | null
  readonly delivered_at: Date | null
  readonly failed_at: Date | null
  readonly failure_reason: string | null
  readonly failure_context: unknown
  readonly dr_checked_at: Date | null
  readonly dr_status: string | null
  readonly dr_delivery_status: string | null
}

/** A wallet as delivery leaves it: balance, and the refunds written. */
export interface WalletRefunds {
  readonly balance: number
  readonly refunds: number
  readonly refunded: number
}

/** A message written directly in status `sent` (the webhook suites finalize it by hand). */
export interface SentMessageInput {
  readonly accountId: string
  readonly apiKeyId: string | null
  readonly recipient?: string
  readonly senderId?: string
}

export class DeliveryProbe extends Context.Tag("store-sql/test/DeliveryProbe")<DeliveryProbe, {
  /** The account's messages, oldest first. */
  readonly messagesOf: (accountId: string) => Effect.Effect<ReadonlyArray<DeliveredMessage>>
  readonly walletOf: (accountId: string) => Effect.Effect<WalletRefunds>
  /** The account's dispatch-queue rows. */
  readonly queuedOf: (accountId: string) => Effect.Effect<number>
  /** Part rows of these messages. */
  readonly partCount: (messageIds: ReadonlyArray<string>) => Effect.Effect<number>
  /** The states of a message's parts, by index. */
  readonly partStates: (messageId: string) => Effect.Effect<ReadonlyArray<string>>
  /** Pending receipts of a provider carrying `ref`. */
  readonly pendingReceipts: (providerId: string, ref: string) => Effect.Effect<number>
  /** The webhook deliveries of these messages (message id, event), by event. */
  readonly webhookEvents: (
    messageIds: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyArray<{ readonly message_id: string; readonly event: string }>>
  readonly providerCredit: (providerId: string) => Effect.Effect<number>
  /** Writes a message in status `sent` (TZ), as the send use case and a worker would have; answers its id. */
  readonly insertSentMessage: (input: SentMessageInput) => Effect.Effect<string>
  /** Moves messages to a final state by hand (the final-state trigger writes their webhook deliveries). */
  readonly finalize: (ids: ReadonlyArray<string>, status: "delivered" | "failed", at?: Date) => Effect.Effect<void>
  readonly setEndpointUrl: (endpointId: string, url: string) => Effect.Effect<void>
}>() {
  /** The probe over the driver's SQL database. */
  static readonly sql: Layer.Layer<DeliveryProbe, never, SqlClient.SqlClient> = Layer.effect(
    DeliveryProbe,
    Effect.map(SqlClient.SqlClient, (sql) =>
      DeliveryProbe.of({
        messagesOf: (accountId) =>
          Effect.orDie(sql<DeliveredMessage>`SELECT id, status, recipient, provider_id, provider_message_id,
            queued_at, sent_at, delivered_at, failed_at, failure_reason, failure_context, dr_checked_at, dr_status,
            dr_delivery_status FROM messages WHERE account_id = ${accountId} ORDER BY created_at, id`),
        walletOf: (accountId) =>
          Effect.orDie(Effect.map(
            sql<WalletRefunds>`SELECT
              (SELECT coalesce(sum(balance), 0)::int FROM wallets WHERE account_id = ${accountId}) AS balance,
              (SELECT count(*)::int FROM wallet_ledger WHERE account_id = ${accountId} AND kind = 'refund') AS refunds,
              (SELECT coalesce(sum(units), 0)::int FROM wallet_ledger WHERE account_id = ${accountId}
                AND kind = 'refund') AS refunded`,
            (rows) => rows[0]!
          )),
        queuedOf: (accountId) =>
          Effect.orDie(Effect.map(
            sql<{ n: number }>`SELECT count(*)::int AS n FROM dispatch_queue WHERE account_id = ${accountId}`,
            (rows) => rows[0]!.n
          )),
        partCount: (ids) =>
          Effect.orDie(Effect.map(
            sql<{ n: number }>`SELECT count(*)::int AS n FROM message_parts WHERE message_id IN ${sql.in(ids)}`,
            (rows) => rows[0]!.n
          )),
        partStates: (id) =>
          Effect.orDie(Effect.map(
            sql<{ state: string }>`SELECT state FROM message_parts WHERE message_id = ${id} ORDER BY part_index`,
            (rows) => rows.map((r) => r.state)
          )),
        pendingReceipts: (providerId, ref) =>
          Effect.orDie(Effect.map(
            sql<{ n: number }>`SELECT count(*)::int AS n FROM delivery_receipts_pending
              WHERE provider_id = ${providerId} AND ${ref} = ANY(refs)`,
            (rows) => rows[0]!.n
          )),
        webhookEvents: (ids) =>
          Effect.orDie(sql<{ message_id: string; event: string }>`SELECT message_id, event FROM webhook_deliveries
            WHERE message_id IN ${sql.in(ids)} ORDER BY event`),
        providerCredit: (providerId) =>
          Effect.orDie(Effect.map(
            sql<{ balance: number }>`SELECT balance FROM provider_credits WHERE provider_id = ${providerId}`,
            (rows) => rows[0]?.balance ?? 0
          )),
        insertSentMessage: (input) =>
          Effect.orDie(Effect.gen(function*() {
            const id = crypto.randomUUID()
            const now = new Date()
            yield* sql`INSERT INTO messages ${sql.insert({ ...sentMessage(input), id, ...times(now) })}`
            return id
          })),
        finalize: (ids, status, at = new Date()) =>
          Effect.orDie(
            status === "delivered"
              ? sql`UPDATE messages SET status = 'delivered', delivered_at = ${at}, updated_at = ${at}
                  WHERE id = ANY(${ids}::uuid[])`
              : sql`UPDATE messages SET status = 'failed', failed_at = ${at}, failure_reason = 'Absent subscriber',
                  updated_at = ${at} WHERE id = ANY(${ids}::uuid[])`
          ),
        setEndpointUrl: (endpointId, url) =>
          Effect.orDie(sql`UPDATE webhook_endpoints SET url = ${url} WHERE id = ${endpointId}`)
      }))
  )

  /** The probe over core's in-memory tables. */
  static readonly memory: Layer.Layer<DeliveryProbe, never, Memory.MemoryDatabase> = Layer.effect(
    DeliveryProbe,
    Effect.map(Memory.MemoryDatabase, (db) => {
      const tx = db.transact
      const messages = (t: Memory.Tables, accountId: string) =>
        [...t.messages.values()]
          .filter((m) => m.account_id === accountId)
          .sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      const parts = (t: Memory.Tables, ids: ReadonlyArray<string>) =>
        [...t.messageParts.values()].filter((p) => ids.includes(p.message_id))
      return DeliveryProbe.of({
        messagesOf: (accountId) => tx((t) => messages(t, accountId).map((m) => ({ ...m }))),
        walletOf: (accountId) =>
          tx((t) => {
            const refunds = t.walletLedger.filter((l) => l.account_id === accountId && l.kind === "refund")
            return {
              balance: [...t.wallets.values()].filter((w) => w.account_id === accountId).reduce(
                (n, w) => n + w.balance,
                0
              ),
              refunds: refunds.length,
              refunded: refunds.reduce((n, l) => n + l.units, 0)
            }
          }),
        queuedOf: (accountId) =>
          tx((t) => [...t.dispatchQueue.values()].filter((q) => q.account_id === accountId).length),
        partCount: (ids) => tx((t) => parts(t, ids).length),
        partStates: (id) => tx((t) => parts(t, [id]).sort((a, b) => a.part_index - b.part_index).map((p) => p.state)),
        pendingReceipts: (providerId, ref) =>
          tx((t) => t.pendingReceipts.filter((o) => o.providerId === providerId && o.candidates.includes(ref)).length),
        webhookEvents: (ids) =>
          tx((t) =>
            [...t.webhookDeliveries.values()]
              .filter((d) => ids.includes(d.message_id))
              .map((d) => ({ message_id: d.message_id, event: d.event }))
              .sort((a, b) => a.event < b.event ? -1 : a.event > b.event ? 1 : 0)
          ),
        providerCredit: (providerId) =>
          tx((t) => [...t.providerCredits.values()].find((c) => c.provider_id === providerId)?.balance ?? 0),
        insertSentMessage: (input) =>
          tx((t) => {
            const id = crypto.randomUUID()
            t.messages.set(
              id,
              Memory.messageRecord({
                ...sentMessage(input),
                id,
                ...times(new Date()),
                campaign_id: null,
                idempotency_key: null,
                scheduled_at: null
              })
            )
            return id
          }),
        // the memory twin of the UPDATE: through the message machine, so the outbox writes as the trigger does
        finalize: (ids, status, at = new Date()) =>
          tx((t) => {
            for (const id of ids) {
              const m = t.messages.get(id)!
              if (status === "delivered") m.delivered_at = at
              else {
                m.failed_at = at
                m.failure_reason = "Absent subscriber"
              }
              m.updated_at = at
              Memory.moveToFinal(t, m, status, at)
            }
          }),
        setEndpointUrl: (endpointId, url) =>
          tx((t) => {
            t.webhookEndpoints.get(endpointId)!.url = url
          })
      })
    })
  )
}

let seq = 0
/** The columns of a `sent` message of the TZ market that the test decides. */
const sentMessage = (input: SentMessageInput) => {
  seq++
  return {
    account_id: input.accountId,
    api_key_id: input.apiKeyId,
    market_id: MARKET_IDS.TZ,
    country: "TZ",
    recipient: input.recipient ?? `+2557000${String(seq % 100000).padStart(5, "0")}`,
    sender_id: input.senderId ?? "TUMA",
    text: "hello",
    encoding: "GSM-7" as const,
    parts: 1,
    units: 1,
    channel: input.apiKeyId === null ? "web" as const : "api" as const,
    status: "sent" as const
  }
}

const times = (now: Date) => ({ created_at: now, queued_at: now, sent_at: now, updated_at: now })

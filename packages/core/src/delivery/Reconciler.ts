/**
 * Reconciliation of unknown outcomes (decisions §21): a message whose submit answered `Unknown` and
 * whose deadline passed is leased for a minute (`dueReconciliations`); its provider is asked the
 * state of every part. When every part is found and one is past `enroute`, the answers are recorded
 * as receipts; otherwise the message fails as unconfirmed (no refund: the carrier may have taken it),
 * never sent elsewhere. Pending receipts older than `pendingReceiptTtlMs` are swept in the same round.
 */
import { Clock, Effect } from "effect"
import type { DispatchStore, ReceiptRecord } from "../ports/DispatchStore.js"
import type { Provider } from "../ports/Provider.js"
import { describeReceiptFailure, normalizeRef } from "./ProviderRef.js"

/** Items leased per round, and for how long. */
export const RECONCILE_BATCH = 200
export const RECONCILE_LEASE_MS = 60_000

/** The failure reason of a message whose outcome nobody confirmed. */
export const UNCONFIRMED_REASON =
  "Delivery unconfirmed: the carrier never confirmed it took the message and sent no delivery receipt."

/** One round of reconciliation. */
export const reconcile = (options: {
  readonly store: Pick<DispatchStore["Type"], "dueReconciliations" | "failUnconfirmed" | "sweepPendingReceipts">
  /** The loaded provider of a provider id. */
  readonly providerById: (providerId: string) => Provider | undefined
  /** Records a receipt; completes once committed. */
  readonly writeReceipt: (receipt: ReceiptRecord) => Effect.Effect<void>
  readonly pendingReceiptTtlMs: number
}): Effect.Effect<void> =>
  Effect.gen(function*() {
    const { pendingReceiptTtlMs, providerById, store, writeReceipt } = options
    const at = new Date(yield* Clock.currentTimeMillis)
    const items = yield* store.dueReconciliations(at, RECONCILE_BATCH, new Date(at.getTime() + RECONCILE_LEASE_MS))
    const unconfirmed: Array<{ messageId: string; reason: string }> = []
    for (const item of items) {
      const provider = providerById(item.providerId)
      if (provider !== undefined && item.providerMessageIds.length > 0) {
        const answers = yield* Effect.forEach(item.providerMessageIds, (id) => provider.query(id))
        const found = answers.filter((a) => a._tag === "Found")
        if (found.length === answers.length && found.some((a) => a.state !== "enroute")) {
          yield* Effect.forEach(item.providerMessageIds, (id, i) => {
            const a = found[i]!
            return writeReceipt({
              providerId: item.providerId,
              candidates: [normalizeRef(id)],
              state: a.state,
              deliveryStatus: a.deliveryStatus,
              errorCode: null,
              failureReason: a.state === "failed" ? describeReceiptFailure(a.deliveryStatus, null) : null,
              receivedAt: at
            })
          }, { discard: true })
          continue
        }
      }
      unconfirmed.push({ messageId: item.messageId, reason: UNCONFIRMED_REASON })
    }
    yield* store.failUnconfirmed(unconfirmed, at)
    yield* store.sweepPendingReceipts(at, new Date(at.getTime() - pendingReceiptTtlMs))
  })

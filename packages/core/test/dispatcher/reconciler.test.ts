/** Reconciliation: a found final state becomes receipts; anything else fails as unconfirmed (no re-send). */
import { expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { reconcile, RECONCILE_BATCH, RECONCILE_LEASE_MS, UNCONFIRMED_REASON } from "../../src/delivery/Reconciler.js"
import type { ReceiptRecord, ReconcileItem } from "../../src/ports/DispatchStore.js"
import type { Provider, QueryOutcome } from "../../src/ports/Provider.js"

const provider = (answers: Record<string, QueryOutcome>): Provider => ({
  id: "p",
  partCount: () => 1,
  submit: () => Effect.die("not used"),
  query: (id) => Effect.succeed(answers[id] ?? { _tag: "NotFound" })
})

it.effect("leases the due items for a minute; found states become receipts, the rest fail as unconfirmed", () =>
  Effect.gen(function*() {
    const items: Array<ReconcileItem> = [
      { messageId: "m1", providerId: "known", reference: "r1", providerMessageIds: ["A", "B"] },
      { messageId: "m2", providerId: "known", reference: "r2", providerMessageIds: ["C"] },
      { messageId: "m3", providerId: "gone", reference: "r3", providerMessageIds: ["D"] },
      { messageId: "m4", providerId: "known", reference: "r4", providerMessageIds: [] }
    ]
    const leases: Array<[number, number]> = []
    const failed: Array<{ messageId: string; reason: string }> = []
    const receipts: Array<ReceiptRecord> = []
    let swept = false
    yield* reconcile({
      store: {
        dueReconciliations: (now, limit, leaseUntil) =>
          Effect.sync(() => {
            leases.push([limit, leaseUntil.getTime() - now.getTime()])
            return items
          }),
        failUnconfirmed: (rows) => Effect.sync(() => void failed.push(...rows)),
        sweepPendingReceipts: () => Effect.sync(() => (swept = true, 0))
      },
      providerById: (id) =>
        id === "known"
          ? provider({
            A: { _tag: "Found", state: "delivered", deliveryStatus: "DELIVRD" },
            B: { _tag: "Found", state: "enroute", deliveryStatus: "ENROUTE" },
            C: { _tag: "Found", state: "enroute", deliveryStatus: "ENROUTE" }
          })
          : undefined,
      writeReceipt: (r) => Effect.sync(() => void receipts.push(r)),
      pendingReceiptTtlMs: 1_000
    })
    expect(leases).toEqual([[RECONCILE_BATCH, RECONCILE_LEASE_MS]])
    expect(receipts.map((r) => [r.providerId, r.state, r.deliveryStatus])).toEqual([
      ["known", "delivered", "DELIVRD"],
      ["known", "enroute", "ENROUTE"]
    ])
    // still en route (m2), an unloaded provider (m3), nothing to ask about (m4): unconfirmed
    expect(failed).toEqual(["m2", "m3", "m4"].map((messageId) => ({ messageId, reason: UNCONFIRMED_REASON })))
    expect(swept).toBe(true)
  }))

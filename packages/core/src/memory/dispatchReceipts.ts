/**
 * Receipts on the memory adapter of `DispatchStore`, the twin of the receipt statements of
 * `SqlDispatchStore`: a receipt is matched by provider and normalised ref to the newest unfinished
 * message or part (a finished one never); unmatched receipts wait in `pendingReceipts` and are
 * applied like fresh ones once their message or part is recorded. Status changes follow the
 * domain's message machine (`messageStates.ts`).
 */
import type { ReceiptRecord } from "../ports/DispatchStore.js"
import { key } from "./internal.js"
import type { MessagePartRecord, Tables } from "./MemoryDatabase.js"
import { latest, receiptEvents, setStatus, statusAfter } from "./messageStates.js"

/** The parts of a message, by index. */
export const partsOf = (t: Tables, messageId: string): Array<MessagePartRecord> => {
  const out: Array<MessagePartRecord> = []
  for (let i = 0;; i++) {
    const p = t.messageParts.get(key(messageId, String(i)))
    if (p === undefined) return out
    out.push(p)
  }
}

interface Target {
  readonly messageId: string
  /** null: a single-part message (its ref is on the message). */
  readonly partIndex: number | null
  readonly sentAt: number
}

/** The newest unfinished message or part of `providerId` carrying `ref` (a finished one never). */
const targetOf = (t: Tables, providerId: string, ref: string): Target | null => {
  let best: Target | null = null
  const consider = (c: Target, id: string) => {
    if (best === null || c.sentAt > best.sentAt || (c.sentAt === best.sentAt && id > best.messageId)) best = c
  }
  for (const m of t.messages.values()) {
    if (m.status === "sent" && m.provider_id === providerId && m.provider_ref === ref) {
      consider({ messageId: m.id, partIndex: null, sentAt: m.sent_at?.getTime() ?? 0 }, m.id)
    }
  }
  let part: Target | null = null
  for (const p of t.messageParts.values()) {
    if (p.provider_id !== providerId || p.provider_ref !== ref || (p.state !== "enroute" && p.state !== "unknown")) {
      continue
    }
    const m = t.messages.get(p.message_id)
    if (m?.status !== "sent") continue
    const c = { messageId: m.id, partIndex: p.part_index, sentAt: m.sent_at?.getTime() ?? 0 }
    if (part === null || c.sentAt > part.sentAt || (c.sentAt === part.sentAt && c.messageId > part.messageId)) part = c
  }
  // the single-part candidate first on a tie (`UNION ALL` order)
  if (part !== null) consider(part, part.messageId)
  return best
}

/**
 * Receipts as the one SQL statement of `SqlDispatchStore.applyReceipts` applies them: every match
 * is decided on the state before any receipt of the batch is written.
 */
export const applyReceipts = (t: Tables, receipts: ReadonlyArray<ReceiptRecord>, now: Date) => {
  const best = new Map<number, Target>()
  receipts.forEach((r, i) => {
    for (const c of r.candidates) {
      const found = targetOf(t, r.providerId, c)
      if (found !== null) return void best.set(i, found)
    }
  })
  // per message or part: the last receipt with a final state wins (else the last)
  const tgt = new Map<string, { target: Target; receipt: ReceiptRecord; i: number }>()
  for (const [i, target] of best) {
    const k = key(target.messageId, String(target.partIndex))
    const held = tgt.get(k)
    const receipt = receipts[i]!
    const rank = (x: ReceiptRecord) => x.state === "enroute" ? 0 : 1
    if (
      held === undefined || rank(receipt) > rank(held.receipt) || (rank(receipt) === rank(held.receipt) && i > held.i)
    ) {
      tgt.set(k, { target, receipt, i })
    }
  }
  // parts: updated unless finished; then their messages, judged on every part
  const moves = new Map<string, { status: "sent" | "delivered" | "failed"; reason: string | null; ds: string }>()
  const updated = new Map<string, Array<MessagePartRecord>>()
  const before = new Map<string, ReadonlyArray<{ state: string; failure_reason: string | null }>>()
  for (const { receipt: r, target } of tgt.values()) {
    if (target.partIndex === null) {
      moves.set(target.messageId, {
        status: r.state === "enroute" ? "sent" : r.state,
        reason: r.failureReason,
        ds: r.deliveryStatus
      })
      continue
    }
    if (!before.has(target.messageId)) {
      before.set(target.messageId, partsOf(t, target.messageId).map((p) => ({ ...p })))
    }
    const p = t.messageParts.get(key(target.messageId, String(target.partIndex)))!
    if (p.state === "delivered" || p.state === "failed") continue
    if (r.state !== "enroute") p.state = r.state
    p.delivery_status = r.deliveryStatus
    p.error_code = r.errorCode
    p.failure_reason = r.failureReason
    p.updated_at = now
    const list = updated.get(p.message_id) ?? []
    list.push(p)
    updated.set(p.message_id, list)
  }
  for (const [messageId, ups] of updated) {
    const was = before.get(messageId)!
    const byIndex = [...ups].sort((a, b) => a.part_index - b.part_index)
    const failed = byIndex.some((p) => p.state === "failed") || was.some((p) => p.state === "failed")
    const delivered = was.filter((p) => p.state === "delivered").length +
        ups.filter((p) => p.state === "delivered").length === was.length
    moves.set(messageId, {
      status: failed ? "failed" : delivered ? "delivered" : "sent",
      reason: byIndex.find((p) => p.state === "failed")?.failure_reason ??
        was.find((p) => p.state === "failed")?.failure_reason ?? null,
      ds: byIndex[byIndex.length - 1]!.delivery_status ?? ""
    })
  }
  for (const [messageId, a] of moves) {
    const m = t.messages.get(messageId)
    if (m?.status !== "sent") continue
    const status = statusAfter(m.status, receiptEvents(a.status))
    if (status === null) continue
    const at = latest(now, m.sent_at)
    if (a.status === "delivered") m.delivered_at = at
    if (a.status === "failed") {
      m.failed_at = at
      m.failure_reason = a.reason
    }
    m.dr_checked_at = latest(now, m.dr_checked_at)
    m.dr_status = a.status
    m.dr_delivery_status = a.ds
    m.updated_at = now
    setStatus(t, m, status, now)
    if (status !== "sent") t.dispatchReconcile.delete(m.id)
  }
  let pending = 0
  receipts.forEach((r, i) => {
    if (best.has(i)) return
    pending++
    t.pendingReceipts.push(r)
  })
  return { matched: best.size, pending }
}

/** Pending receipts whose message or part is now recorded, taken out and applied like fresh ones. */
export const applyPendingReceipts = (t: Tables, now: Date): number => {
  const ready = t.pendingReceipts.filter((o) => o.candidates.some((ref) => targetOf(t, o.providerId, ref) !== null))
  if (ready.length === 0) return 0
  const keep = t.pendingReceipts.filter((o) => !ready.includes(o))
  t.pendingReceipts.splice(0, t.pendingReceipts.length, ...keep)
  applyReceipts(t, ready, now)
  return ready.length
}

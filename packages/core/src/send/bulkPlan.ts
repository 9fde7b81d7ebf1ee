/**
 * The steps of one bulk send, each a pure function: the candidates (recipients deduplicated, first
 * wins; texts rendered, converted and priced), the plan over a store snapshot (checks per recipient,
 * provider credit and, for `skip`, the wallets), the campaign's summary (charges per country, the
 * answer's data) and the store's accept plan.
 */
import type { Encoding, NormalizedRecipient, TagExpressionInvalid } from "@tuma/domain"
import { DuplicateRecipient } from "@tuma/domain"
import { Either } from "effect"
import type { AcceptPlan, IdempotencyClaim, MessageItem, SendSnapshot, WalletDebit } from "../ports/SendStore.js"
import type { Accepted, Candidate, Failure } from "./candidates.js"
import { failureEntry } from "./candidates.js"
import { analyze, insufficientFor, makeChecker } from "./checks.js"
import type { CampaignData, SendCaller, SendSettings } from "./model.js"

/** What a bulk front end (v1 or v2) hands the one bulk path. */
export interface BulkInput {
  readonly request: unknown
  readonly senderId: string
  readonly campaignName: string | null
  /** The text as written (v2: the template), stored with the campaign. */
  readonly message: string
  readonly scheduledAt: string | null | undefined
  readonly count: number
  /** Normalised recipients (invalid ones already refused). */
  readonly recipients: ReadonlyArray<NormalizedRecipient & { readonly raw: string }>
  /** The finished text of recipient `index`. */
  readonly textOf: (index: number) => Either.Either<string, TagExpressionInvalid>
}

/** Dedupe (first wins), render, convert and price every recipient: the candidates and the refused. */
export const bulkCandidates = (
  input: BulkInput,
  partSizing: SendSettings["partSizing"]
): { readonly failures: ReadonlyArray<Failure>; readonly candidates: ReadonlyArray<Candidate> } => {
  const failures: Array<Failure> = []
  const candidates: Array<Candidate> = []
  const seen = new Set<string>()
  const analyzedByText = new Map<string, ReturnType<typeof analyze>>()
  for (let index = 0; index < input.count; index++) {
    const r = input.recipients[index]
    if (seen.has(r.e164)) {
      failures.push({
        index,
        recipient: r.e164,
        error: new DuplicateRecipient({
          message: `${r.e164} is listed more than once; it is sent once, to its first entry.`,
          recipient: r.e164
        })
      })
      continue
    }
    seen.add(r.e164)
    const rendered = input.textOf(index)
    if (Either.isLeft(rendered)) {
      failures.push({ index, recipient: r.e164, error: rendered.left })
      continue
    }
    let analyzed = analyzedByText.get(rendered.right)
    if (analyzed === undefined) {
      analyzed = analyze(rendered.right, partSizing)
      analyzedByText.set(rendered.right, analyzed)
    }
    if (Either.isLeft(analyzed)) {
      failures.push({ index, recipient: r.e164, error: analyzed.left })
      continue
    }
    candidates.push({ index, e164: r.e164, country: r.country, ...analyzed.right })
  }
  return { failures, candidates }
}

/** The plan of one round over `snap`: who is accepted, who is refused and why (plus the checker). */
export const planBulk = (options: {
  readonly snap: SendSnapshot
  readonly senderName: string
  readonly settings: Pick<SendSettings, "spamPolicy">
  readonly sandbox: boolean
  readonly wallet: "skip" | "allOrNothing"
  readonly candidates: ReadonlyArray<Candidate>
  readonly failures: ReadonlyArray<Failure>
}) => {
  const { candidates, failures, sandbox, senderName, snap } = options
  const checker = makeChecker(snap, senderName, options.settings.spamPolicy)
  const failed = [...failures]
  const accepted: Array<Omit<Accepted, "id">> = []
  const providerUsed = new Map<string, number>()
  const walletUsed = new Map<string, number>()
  for (const c of candidates) {
    const checked = checker.check(c.e164, c.country, c.text)
    if (Either.isLeft(checked)) {
      failed.push({ index: c.index, recipient: c.e164, error: checked.left })
      continue
    }
    const { market } = checked.right
    if (!sandbox) {
      const p = checker.provider(market, c.units, providerUsed.get(market.id) ?? 0)
      if (p !== undefined) {
        failed.push({ index: c.index, recipient: c.e164, error: p })
        continue
      }
      if (options.wallet === "skip") {
        const used = walletUsed.get(market.id) ?? 0
        const balance = checker.balanceOf(market.id)
        if (balance - used < c.units) {
          failed.push({
            index: c.index,
            recipient: c.e164,
            error: insufficientFor(c.country, c.units, Math.max(0, balance - used))
          })
          continue
        }
      }
      providerUsed.set(market.id, (providerUsed.get(market.id) ?? 0) + c.units)
      walletUsed.set(market.id, (walletUsed.get(market.id) ?? 0) + c.units)
    }
    accepted.push({ ...c, ...checked.right })
  }
  return { checker, failed, accepted }
}

/** A campaign's totals: units, charges per country (by market), the answer's base data. */
export const campaignSummary = (options: {
  readonly campaignId: string
  readonly name: string
  readonly status: "queued" | "scheduled"
  readonly count: number
  readonly scheduled: Date | null
  readonly accepted: ReadonlyArray<Accepted>
  readonly failed: ReadonlyArray<Failure>
  readonly encoding: Encoding
}) => {
  const { accepted, failed, scheduled } = options
  const charges = new Map<string, { marketId: string; units: number }>()
  let units = 0
  for (const a of accepted) {
    units += a.units
    const c = charges.get(a.country)
    if (c === undefined) charges.set(a.country, { marketId: a.market.id, units: a.units })
    else c.units += a.units
  }
  const base: CampaignData = {
    uid: options.campaignId,
    name: options.name,
    status: options.status,
    recipient_count: options.count,
    queued_count: accepted.length,
    failed_count: failed.length,
    scheduled_at: scheduled === null ? null : scheduled.toISOString(),
    failures: failed.map(failureEntry),
    units,
    charges: [...charges].map(([country, c]) => ({ country, units: c.units })).sort((a, b) =>
      a.country < b.country ? -1 : 1
    ),
    encoding: options.encoding
  }
  return { charges, units, base }
}

/** The store's accept plan of a live campaign: debits, the campaign row, its messages. */
export const bulkAcceptPlan = (options: {
  readonly caller: SendCaller
  readonly version: "v1" | "v2"
  readonly now: Date
  readonly idempotency: IdempotencyClaim | undefined
  readonly walletIdOf: (marketId: string) => string
  readonly summary: ReturnType<typeof campaignSummary>
  readonly status: "queued" | "scheduled"
  readonly accepted: ReadonlyArray<Accepted>
  readonly scheduled: Date | null
  /** The text as written (v2: the template). */
  readonly message?: string | undefined
}): AcceptPlan => {
  const { accepted, caller, now, scheduled, summary } = options
  const { base, charges, units } = summary
  const campaignId = base.uid
  const status = options.status
  const senderDisplay = accepted[0].sender.display_name
  const debits: Array<WalletDebit> = [...charges.values()].map((c) => ({
    wallet_id: options.walletIdOf(c.marketId),
    market_id: c.marketId,
    units: c.units
  }))
  return {
    accountId: caller.accountId,
    now,
    idempotency: options.idempotency,
    debits,
    campaign: {
      id: campaignId,
      account_id: caller.accountId,
      api_key_id: caller.apiKeyId,
      api_version: options.version,
      name: base.name,
      sender_id: senderDisplay,
      status,
      recipient_count: base.recipient_count,
      queued_count: accepted.length,
      failed_count: base.failed_count,
      units,
      failures: base.failures,
      scheduled_at: scheduled,
      created_at: now,
      message: options.message
    },
    messages: {
      common: {
        account_id: caller.accountId,
        api_key_id: caller.apiKeyId,
        campaign_id: campaignId,
        sender_id: senderDisplay,
        channel: caller.channel ?? "api",
        status,
        idempotency_key: caller.idempotencyKey ?? null,
        created_at: now,
        scheduled_at: scheduled,
        queued_at: scheduled === null ? now : null
      },
      items: accepted.map((a): MessageItem => ({
        id: a.id,
        market_id: a.market.id,
        country: a.country,
        recipient: a.e164,
        text: a.text,
        encoding: a.encoding.final,
        parts: a.encoding.segments,
        units: a.units
      }))
    }
  }
}

/**
 * Bulk sends (v1 and v2 over one path): recipients normalised, texts rendered and priced per recipient, checks per recipient (refused ones go to `failures`), one accept for the campaign.
 */
import type { BulkSendV1Request, BulkSendV2Request, CountryCode, Encoding, NormalizedRecipient } from "@tuma/domain"
import {
  canonicalSenderId,
  checkScheduledAt,
  compileTemplate,
  normalizeRecipient,
  priceCampaign,
  renderCompiled,
  resolveBulkV1,
  splitBulkRecipient,
  ValidationFailed,
  validationFailed
} from "@tuma/domain"
import { Effect, Either, Schema } from "effect"
import { Ids } from "../ports/Ids.js"
import { classifyAcceptDefects, SendStore } from "../ports/SendStore.js"
import type { BulkInput } from "./bulkPlan.js"
import { bulkAcceptPlan, bulkCandidates, campaignSummary, planBulk } from "./bulkPlan.js"
import type { Accepted } from "./candidates.js"
import { accountCheck, invalidRecipients, mergeEncodings } from "./checks.js"
import {
  CampaignData,
  CampaignV1,
  CampaignV2,
  localCountryOf,
  SEND_ENDPOINTS,
  SendCaller,
  SendConfig,
  SendError,
  SendOutcome
} from "./model.js"
import type { DecodeAnswer, SendSupport } from "./support.js"

/**
 * What differs between bulk v1 and v2, as data: the one bulk path below reads it and never asks
 * which version it runs.
 */
export interface BulkPolicy<D extends CampaignData> {
  /** `campaigns.api_version`. */
  readonly version: "v1" | "v2"
  /** The idempotency fingerprint's endpoint name. */
  readonly endpoint: string
  /**
   * A live campaign's wallet rule: `skip` (v1) leaves out, in order, the recipients a country's
   * wallet can no longer cover; `allOrNothing` (v2) refuses the campaign unless every country's
   * wallet covers its part (`priceCampaign`).
   */
  readonly wallet: "skip" | "allOrNothing"
  /** How many times a live accept is planned again when balances moved since the snapshot (v1: 3). */
  readonly acceptRounds: number
  /** The campaign's encoding: v1 the text's (one text), v2 merged over the rendered texts. */
  readonly encodingOf: (accepted: ReadonlyArray<Accepted>) => Encoding
  /** The answer's `data`: v1 `results`, v2 `messages` with each recipient's price. */
  readonly answer: (base: CampaignData, accepted: ReadonlyArray<Accepted>) => D
  /** Decodes the stored answer an idempotent replay gives again. */
  readonly decode: DecodeAnswer<D>
}

/** Bulk v1 (spec §4.4): one text; recipients the wallet cannot cover are skipped; `results`. */
export const BULK_V1: BulkPolicy<CampaignV1> = {
  version: "v1",
  endpoint: SEND_ENDPOINTS.bulkV1,
  wallet: "skip",
  acceptRounds: 3,
  encodingOf: (accepted) => accepted[0].encoding,
  decode: Schema.decodeUnknown(CampaignV1),
  answer: (base, accepted) => ({
    ...base,
    results: accepted.map((a) => ({ recipient: a.e164, status: base.status, message_uid: a.id }))
  })
}

/** Bulk v2 (spec §4.5): a template per recipient; all or nothing on the wallets; `messages`. */
export const BULK_V2: BulkPolicy<CampaignV2> = {
  version: "v2",
  endpoint: SEND_ENDPOINTS.bulkV2,
  wallet: "allOrNothing",
  acceptRounds: 1,
  encodingOf: (accepted) => mergeEncodings([...new Set(accepted.map((a) => a.encoding))]),
  decode: Schema.decodeUnknown(CampaignV2),
  answer: (base, accepted) => ({
    ...base,
    messages: accepted.map((a) => ({
      message_uid: a.id,
      recipient: a.e164,
      units: a.units,
      status: base.status,
      encoding: a.encoding.final
    }))
  })
}

/** Every recipient normalised, or the refusal naming each invalid one by its path. */
const normalizeAll = (
  raws: ReadonlyArray<string>,
  pathOf: (index: number) => string,
  defaultCountry: CountryCode | undefined
): Either.Either<Array<NormalizedRecipient & { raw: string }>, ValidationFailed> => {
  const out: Array<NormalizedRecipient & { raw: string }> = []
  const errors: Record<string, Array<string>> = {}
  let bad = false
  for (let i = 0; i < raws.length; i++) {
    const r = normalizeRecipient(raws[i], { defaultCountry })
    if (Either.isLeft(r)) {
      errors[pathOf(i)] = [r.left.message]
      bad = true
    } else out.push({ ...r.right, raw: raws[i] })
  }
  return bad ? Either.left(invalidRecipients(errors)) : Either.right(out)
}

/** Bulk v1 and v2. */
export const makeBulk = (
  deps: { readonly store: SendStore["Type"]; readonly ids: Ids["Type"]; readonly support: SendSupport }
) => {
  const { store, ids } = deps
  const { nowDate, idempotent, idempotencyClaim, shortfallError, afterAccept } = deps.support
  // bulk: one path; the version's differences are its `BulkPolicy`, the steps are `bulkPlan.ts`'s
  const bulk = <D extends CampaignData>(caller: SendCaller, policy: BulkPolicy<D>, input: BulkInput) =>
    idempotent<D>(
      caller,
      policy.endpoint,
      policy.decode,
      input.request,
      (fingerprint) =>
        Effect.gen(function*() {
          const cfg = yield* SendConfig
          const now = yield* nowDate
          const sandbox = caller.mode === "test"
          const scheduledAt = checkScheduledAt(input.scheduledAt, now)
          if (Either.isLeft(scheduledAt)) return yield* scheduledAt.left
          const scheduled = scheduledAt.right
          const senderName = canonicalSenderId(input.senderId)
          const { candidates, failures } = bulkCandidates(input, cfg.partSizing)
          const countries = [...new Set(candidates.map((c) => c.country))]

          const attempt = (round: number): Effect.Effect<SendOutcome<D>, SendError> =>
            Effect.gen(function*() {
              const snap = yield* store.snapshot({
                accountId: caller.accountId,
                senderName,
                countries,
                recipients: candidates.map((c) => c.e164)
              })
              yield* accountCheck(snap)
              const { accepted: planned, checker, failed } = planBulk({
                snap,
                senderName,
                settings: cfg,
                sandbox,
                wallet: policy.wallet,
                candidates,
                failures
              })
              if (planned.length === 0) {
                // nothing can be sent: refuse with the first recipient's reason
                failed.sort((a, b) => a.index - b.index)
                return yield* Effect.fail(failed[0].error)
              }
              if (!sandbox && policy.wallet === "allOrNothing") {
                const priced = priceCampaign(
                  planned.map((a) => ({ country: a.country, units: a.units })),
                  new Map(countries.map((c) => {
                    const m = checker.markets.get(c)
                    return [c, m === undefined ? 0 : checker.balanceOf(m.id)] as const
                  }))
                )
                if (Either.isLeft(priced)) return yield* priced.left
              }
              failed.sort((a, b) => a.index - b.index)

              const messageIds = yield* ids.uuidV7Batch(planned.length)
              const accepted: Array<Accepted> = planned.map((a, i) => ({ ...a, id: messageIds[i] }))
              const status = scheduled === null ? "queued" as const : "scheduled" as const
              const summary = campaignSummary({
                campaignId: yield* ids.uuidV7,
                name: input.campaignName ?? `Campaign ${now.toISOString().slice(0, 16).replace("T", " ")}`,
                status,
                count: input.count,
                scheduled,
                accepted,
                failed,
                encoding: policy.encodingOf(accepted)
              })
              const data = policy.answer(summary.base, accepted)
              if (sandbox) return { data, idempotent_replay: false, sandbox: true }

              const outcome = yield* classifyAcceptDefects(store.accept(bulkAcceptPlan({
                caller,
                version: policy.version,
                now,
                idempotency: yield* idempotencyClaim(caller, policy.endpoint, fingerprint, now, data),
                walletIdOf: (marketId) => checker.wallets.get(marketId)!.id,
                summary,
                status,
                accepted,
                scheduled,
                message: input.message
              })))
              if (outcome._tag === "InsufficientFunds" && round < policy.acceptRounds) {
                // balances moved since the snapshot: plan again (a `skip` policy leaves out who no longer fits)
                return yield* attempt(round + 1)
              }
              return yield* afterAccept(outcome, fingerprint, policy.decode, data, (o) =>
                shortfallError(o, checker.markets, summary.units))
            })
          return yield* attempt(1)
        })
    )

  // ------------------------------------------------------------------------------------------
  // v1 and v2 front ends
  // ------------------------------------------------------------------------------------------

  const bulkV1 = (caller: SendCaller, request: BulkSendV1Request) =>
    Effect.gen(function*() {
      const cfg = yield* SendConfig
      const { campaign_name, text } = resolveBulkV1(request)
      const recipients = normalizeAll(request.recipients, (i) => `recipients.${i}`, localCountryOf(caller, cfg))
      if (Either.isLeft(recipients)) return yield* recipients.left
      const rendered = Either.right(text)
      return yield* bulk(caller, BULK_V1, {
        request,
        senderId: request.sender_id,
        campaignName: campaign_name,
        message: text,
        scheduledAt: request.scheduled_at,
        count: request.recipients.length,
        recipients: recipients.right,
        textOf: () => rendered
      })
    })

  const bulkV2 = (caller: SendCaller, request: BulkSendV2Request) =>
    Effect.gen(function*() {
      const cfg = yield* SendConfig
      const split = request.recipients.map(splitBulkRecipient)
      const recipients = normalizeAll(
        split.map((s) => s.to),
        (i) => typeof request.recipients[i] === "string" ? `recipients.${i}` : `recipients.${i}.to`,
        localCountryOf(caller, cfg)
      )
      if (Either.isLeft(recipients)) return yield* recipients.left
      const template = compileTemplate(request.message)
      if (Either.isLeft(template)) {
        return yield* validationFailed({ message: [template.left.message] })
      }
      const compiled = template.right
      return yield* bulk(caller, BULK_V2, {
        request,
        senderId: request.sender_id,
        campaignName: request.campaign_name ?? null,
        message: request.message,
        scheduledAt: request.scheduled_at,
        count: request.recipients.length,
        recipients: recipients.right,
        textOf: (i) => renderCompiled(compiled, split[i].values)
      })
    })

  return { bulkV1, bulkV2 }
}

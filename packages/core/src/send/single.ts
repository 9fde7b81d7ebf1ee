/**
 * The single send (POST /v1/sms/messages): duplicate-content limit, idempotency, checks, one accept.
 */
import type { SendMessageRequest } from "@tuma/domain"
import { canonicalSenderId, normalizeRecipient } from "@tuma/domain"
import { Effect, Either } from "effect"
import type { SentMessage } from "../MessageEntry.js"
import { ContentCounter } from "../ports/ContentCounter.js"
import { Ids } from "../ports/Ids.js"
import type { AcceptPlan } from "../ports/SendStore.js"
import { classifyAcceptDefects, SendStore } from "../ports/SendStore.js"
import { accountCheck, analyze, insufficientFor, invalidRecipients, makeChecker } from "./checks.js"
import { checkDuplicateContent } from "./DuplicateContent.js"
import { SEND_ENDPOINTS, SendCaller, SendConfig } from "./model.js"
import type { SendSupport } from "./support.js"

/** The single send. */
export const makeSingle = (
  deps: {
    readonly store: SendStore["Type"]
    readonly ids: Ids["Type"]
    readonly counter: ContentCounter["Type"]
    readonly support: SendSupport
  }
) => {
  const { store, ids, counter } = deps
  const { nowDate, idempotent, idempotencyClaim, shortfallError, afterAccept } = deps.support
  // ------------------------------------------------------------------------------------------
  // single
  // ------------------------------------------------------------------------------------------

  const single = (caller: SendCaller, request: SendMessageRequest) =>
    Effect.zipRight(
      Effect.flatMap(
        SendConfig,
        (cfg) => checkDuplicateContent(counter, cfg, caller, request.sender_id, request.body)
      ),
      singleChecked(caller, request)
    )

  const singleChecked = (caller: SendCaller, request: SendMessageRequest) =>
    idempotent<SentMessage>(caller, SEND_ENDPOINTS.single, request, (fingerprint) =>
      Effect.gen(function*() {
        const cfg = yield* SendConfig
        const now = yield* nowDate
        const sandbox = caller.mode === "test"
        const recipient = normalizeRecipient(request.recipient, { defaultCountry: cfg.defaultCountry })
        if (Either.isLeft(recipient)) return yield* invalidRecipients({ recipient: [recipient.left.message] })
        const { country, e164 } = recipient.right
        const analyzed = analyze(request.body, cfg.partSizing)
        if (Either.isLeft(analyzed)) return yield* analyzed.left
        const { encoding, text, units } = analyzed.right
        const senderName = canonicalSenderId(request.sender_id)

        const snap = yield* store.snapshot({
          accountId: caller.accountId,
          senderName,
          countries: [country],
          recipients: [e164]
        })
        yield* accountCheck(snap)
        const checker = makeChecker(snap, senderName, cfg.spamPolicy)
        const checked = checker.check(e164, country, text)
        if (Either.isLeft(checked)) return yield* checked.left
        const { market, sender } = checked.right
        if (!sandbox) {
          const p = checker.provider(market, units, 0)
          if (p !== undefined) return yield* p
          const balance = checker.balanceOf(market.id)
          if (balance < units) return yield* insufficientFor(country, units, balance)
        }

        const id = yield* ids.uuidV7
        const channel = caller.channel ?? "api"
        const data: SentMessage = {
          uid: id,
          recipient: e164,
          sender_id: sender.display_name,
          units,
          channel,
          status: "queued",
          provider_message_id: null,
          queued_at: now.toISOString(),
          sent_at: null,
          delivered_at: null,
          failure_reason: null,
          failure_context: null,
          delivery_report: { checked_at: null, status: null, delivery_status: null },
          encoding
        }
        if (sandbox) return { data, idempotent_replay: false, sandbox: true }

        const plan: AcceptPlan = {
          accountId: caller.accountId,
          now,
          idempotency: yield* idempotencyClaim(caller, SEND_ENDPOINTS.single, fingerprint, now, data),
          debits: [{ wallet_id: checker.wallets.get(market.id)!.id, market_id: market.id, units }],
          campaign: undefined,
          messages: {
            common: {
              account_id: caller.accountId,
              api_key_id: caller.apiKeyId,
              campaign_id: null,
              sender_id: sender.display_name,
              channel,
              status: "queued",
              idempotency_key: caller.idempotencyKey ?? null,
              created_at: now,
              scheduled_at: null,
              queued_at: now
            },
            items: [{
              id,
              market_id: market.id,
              country,
              recipient: e164,
              text,
              encoding: encoding.final,
              parts: encoding.segments,
              units
            }]
          }
        }
        const outcome = yield* classifyAcceptDefects(store.accept(plan))
        return yield* afterAccept(outcome, fingerprint, data, (o) => shortfallError(o, checker.markets, units))
      }))

  return single
}

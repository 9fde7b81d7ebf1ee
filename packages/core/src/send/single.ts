/**
 * The single send (POST /v1/sms/messages): duplicate-content limit, idempotency, checks, one accept.
 * The checks may run on a reused snapshot (`snapshotCache.ts`): then a refusal, or an accept that finds
 * the snapshot stale, decides the send again on a fresh one.
 */
import type { SendMessageRequest } from "@tuma/domain"
import { canonicalSenderId, normalizeRecipient } from "@tuma/domain"
import { Effect, Either, Schema } from "effect"
import { SentMessage } from "../MessageEntry.js"
import { ContentCounter } from "../ports/ContentCounter.js"
import { Ids } from "../ports/Ids.js"
import type { AcceptPlan } from "../ports/SendStore.js"
import { classifyAcceptDefects, SendStore } from "../ports/SendStore.js"
import { analyze, checkerOf, inactiveAccount, insufficientFor, invalidRecipients } from "./checks.js"
import { checkDuplicateContent } from "./DuplicateContent.js"
import type { SendError, SendOutcome } from "./model.js"
import { localCountryOf, SEND_ENDPOINTS, SendCaller, SendConfig } from "./model.js"
import type { CachedSnapshot, SnapshotCache } from "./snapshotCache.js"
import type { SendSupport } from "./support.js"

const decodeSentMessage = Schema.decodeUnknown(SentMessage)

/** The single send. */
export const makeSingle = (
  deps: {
    readonly store: SendStore["Type"]
    readonly ids: Ids["Type"]
    readonly counter: ContentCounter["Type"]
    readonly support: SendSupport
    readonly snapshots: SnapshotCache
  }
) => {
  const { counter, ids, snapshots, store } = deps
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
    idempotent<SentMessage>(
      caller,
      SEND_ENDPOINTS.single,
      decodeSentMessage,
      request,
      (fingerprint) =>
        Effect.gen(function*() {
          const cfg = yield* SendConfig
          const now = yield* nowDate
          const sandbox = caller.mode === "test"
          const recipient = normalizeRecipient(request.recipient, { defaultCountry: localCountryOf(caller, cfg) })
          if (Either.isLeft(recipient)) return yield* invalidRecipients({ recipient: [recipient.left.message] })
          const { country, e164 } = recipient.right
          const analyzed = analyze(request.body, cfg.partSizing)
          if (Either.isLeft(analyzed)) return yield* analyzed.left
          const { encoding, text, units } = analyzed.right
          const senderName = canonicalSenderId(request.sender_id)
          const snapshotRequest = { accountId: caller.accountId, senderName, countries: [country], recipients: [e164] }
          const reuseMillis = cfg.snapshotReuseMillis ?? 1_000
          const channel = caller.channel ?? "api"

          /** The checks of spec §1 on one snapshot, then the accept. */
          const decide = ({ reused, snapshot }: CachedSnapshot): Effect.Effect<SendOutcome<SentMessage>, SendError> => {
            // a reused snapshot never refuses: the send is decided again on a fresh one
            const again = Effect.suspend(() => Effect.flatMap(snapshots.fresh(snapshotRequest, reuseMillis), decide))
            const refuse = (e: SendError) => reused ? again : Effect.fail(e)
            const inactive = inactiveAccount(snapshot)
            if (inactive !== undefined) return refuse(inactive)
            const checker = checkerOf(
              caller.optOutNotice === true ? { ...snapshot, optedOut: [] } : snapshot,
              senderName,
              cfg.spamPolicy
            )
            const checked = checker.check(e164, country, text)
            if (Either.isLeft(checked)) return refuse(checked.left)
            const { market, sender } = checked.right
            const message = Effect.map(ids.uuidV7, (id): SentMessage => ({
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
            }))
            if (sandbox) return Effect.map(message, (data) => ({ data, idempotent_replay: false, sandbox: true }))
            const noProvider = checker.provider(market, units, 0)
            if (noProvider !== undefined) return refuse(noProvider)
            // on a reused snapshot the balance is left to accept's conditional debit
            const wallet = checker.wallets.get(market.id)
            const balance = checker.balanceOf(market.id)
            if (wallet === undefined || (!reused && balance < units)) {
              return refuse(insufficientFor(country, units, balance))
            }
            return Effect.gen(function*() {
              const data = yield* message
              const id = data.uid
              const plan: AcceptPlan = {
                accountId: caller.accountId,
                now,
                guard: reused && snapshot.settingsVersion !== undefined
                  ? { settingsVersion: snapshot.settingsVersion, recipient: e164 }
                  : undefined,
                idempotency: yield* idempotencyClaim(caller, SEND_ENDPOINTS.single, fingerprint, now, data),
                debits: [{ wallet_id: wallet.id, market_id: market.id, units }],
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
                    smpp_account_id: caller.smppAccountId ?? null,
                    smpp_intermediate: caller.smppIntermediate === true,
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
              if (outcome._tag === "Stale") return yield* again
              return yield* afterAccept(
                outcome,
                fingerprint,
                decodeSentMessage,
                data,
                (o) => shortfallError(o, checker.markets, units)
              )
            })
          }

          // a sandbox send has no accept to re-check a reused snapshot: it reads a fresh one
          const first = sandbox
            ? snapshots.fresh(snapshotRequest, reuseMillis)
            : snapshots.get(snapshotRequest, reuseMillis)
          return yield* Effect.flatMap(first, decide)
        })
    )

  return single
}

/**
 * The send use cases: single (POST /v1/sms/messages), bulk v1 (POST /v1/sms/send-bulk) and bulk v2
 * (POST /v2/sms/send-bulk). No HTTP here: the caller passes the decoded request and who is calling;
 * the answer is the response `data` ready to be put in the envelope.
 *
 * Every send:
 *  1. idempotency: an unexpired record for (account, key) answers at once — same endpoint and body
 *     → its first answer with `idempotent_replay: true`; otherwise `IdempotencyKeyReused`.
 *  2. validation: recipients normalised to E.164 (invalid → 422 on `recipient` / `recipients.N`),
 *     `scheduled_at` in the future, bodies converted and priced (`analyzeBody`, one unit per segment).
 *  3. ONE read of the store (`SendStore.snapshot`), then the checks of spec §1 in order: account
 *     active, market open (decisions §29: before the sender ID), sender ID approved on the account
 *     (for the destination market, or global), route verified, opt-out, spam policy, a provider route with provider credit, customer
 *     credit.
 *  4. ONE transaction (`SendStore.accept`): idempotency claim, conditional debits + ledger,
 *     campaign, messages, dispatch queue. Nothing of a refused send is stored or charged.
 *
 * Sandbox (`mode: "test"`) validates and checks exactly as live (steps 2–3 up to the spam policy;
 * provider and customer credit are not consumed by sandbox sends so they are not checked) and
 * answers a synthetic success: nothing is stored, charged or queued, no idempotency record is kept.
 */
import type { BulkSendV1Request, BulkSendV2Request, SendMessageRequest } from "@tuma/domain"
import type { Exit } from "effect"
import { Context, Effect, Layer, Option } from "effect"
import type { SentMessage } from "../MessageEntry.js"
import { ContentCounter } from "../ports/ContentCounter.js"
import { Ids } from "../ports/Ids.js"
import { SendStore } from "../ports/SendStore.js"
import { SettingsChanges } from "../ports/SettingsChanges.js"
import { makeBulk } from "./bulk.js"
import { CampaignV1, CampaignV2, SendCaller, SendError, SendOutcome } from "./model.js"
import { makeSingle } from "./single.js"
import { makeSnapshotCache, type SnapshotCache } from "./snapshotCache.js"
import { makeSendSupport } from "./support.js"

// ---------------------------------------------------------------------------------------------
// The service
// ---------------------------------------------------------------------------------------------

/**
 * The send use cases: `single`, `bulkV1` and `bulkV2`. Each checks, prices and, in one transaction, stores,
 * charges and queues; a refusal is a typed `SendError` and writes nothing. `Send.layer` needs a `SendStore`
 * and `Ids`.
 */
export class Send extends Context.Tag("@tuma/core/Send")<Send, {
  /** POST /v1/sms/messages (alias /v1/sms/quick-message). */
  readonly single: (
    caller: SendCaller,
    request: SendMessageRequest
  ) => Effect.Effect<SendOutcome<SentMessage>, SendError>
  /**
   * Several single sends decided together (the SMPP server's submits of one window): each
   * request is a `single` with all of its rules and its own answer (its `Exit`) — a refusal or a defect
   * of one never touches another — and their accepts reach the store at the same moment, so the SQL store commits them in one
   * group (`SqlSendStore`'s group commit): one transaction and one durable COMMIT, each answered after it.
   */
  readonly batch: (
    sends: ReadonlyArray<{ readonly caller: SendCaller; readonly request: SendMessageRequest }>
  ) => Effect.Effect<ReadonlyArray<Exit.Exit<SendOutcome<SentMessage>, SendError>>>
  /** POST /v1/sms/send-bulk. */
  readonly bulkV1: (caller: SendCaller, request: BulkSendV1Request) => Effect.Effect<SendOutcome<CampaignV1>, SendError>
  /** POST /v2/sms/send-bulk. */
  readonly bulkV2: (caller: SendCaller, request: BulkSendV2Request) => Effect.Effect<SendOutcome<CampaignV2>, SendError>
}>() {
  /**
   * Needs a `SendStore`, `Ids` and a `ContentCounter`; with `SettingsChanges` in the context too, the single
   * send's reused snapshots (`snapshotCache.ts`) are dropped as soon as an operator changes a setting.
   */
  static readonly layer: Layer.Layer<Send, never, SendStore | Ids | ContentCounter> = Layer.scoped(
    Send,
    Effect.gen(function*() {
      const store = yield* SendStore
      const ids = yield* Ids
      const counter = yield* ContentCounter
      const snapshots = makeSnapshotCache(store, { maxEntries: 10_000 })
      const changes = yield* Effect.serviceOption(SettingsChanges)
      if (Option.isSome(changes)) {
        const next = yield* changes.value.subscribe
        yield* next.pipe(Effect.zipRight(Effect.sync(snapshots.clear)), Effect.forever, Effect.forkScoped)
      }
      return Send.of(makeSend(store, ids, counter, snapshots))
    })
  )
}

/**
 * `Send.batch` over a single send: every request run at once (their accepts meet in the store's group
 * commit), each answered by its own outcome, refusal or defect.
 */
export const batchOf = (single: Send["Type"]["single"]): Send["Type"]["batch"] => (sends) =>
  Effect.forEach(sends, (s) => Effect.exit(single(s.caller, s.request)), { concurrency: "unbounded" })

const makeSend = (
  store: SendStore["Type"],
  ids: Ids["Type"],
  counter: ContentCounter["Type"],
  snapshots: SnapshotCache
) => {
  const deps = { store, ids, counter, support: makeSendSupport(store) }
  const single = makeSingle({ ...deps, snapshots })
  return { single, batch: batchOf(single), ...makeBulk(deps) }
}

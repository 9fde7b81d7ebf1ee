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
import type {
  BulkSendV1Request,
  BulkSendV2Request,
  DuplicateContentRateLimited,
  EmptyMessage,
  Encoding,
  EncodingChange,
  MessageTooLong,
  NormalizedRecipient,
  PartSizing,
  SendMessageRequest,
  SpamPolicy
} from "@tuma/domain"
import {
  AccountInactive,
  analyzeBody,
  BODY_MAX_LENGTH,
  canonicalSenderId,
  checkOptOut,
  checkScheduledAt,
  checkSpam,
  compileTemplate,
  CountryNotAvailable,
  defaultSpamPolicy,
  DuplicateRecipient,
  EmptyMessage as EmptyMessageError,
  IDEMPOTENCY_TTL,
  idempotencyFingerprint,
  IdempotencyKeyReused,
  InsufficientBalance,
  MessageTooLong as MessageTooLongError,
  NoProviderRoute,
  normalizeRecipient,
  priceCampaign,
  ProviderCreditExhausted,
  RecipientOptedOut,
  renderCompiled,
  resolveBulkV1,
  RouteNotVerified,
  SenderIdNotApproved,
  SpamPolicyViolation,
  splitBulkRecipient,
  TagExpressionInvalid,
  unitsPerRecipient,
  ValidationFailed,
  validationFailed,
  withoutPhrases
} from "@tuma/domain"
import type { CountryCode } from "@tuma/domain"
import { Clock, Context, Duration, Effect, Either, Layer, Option } from "effect"
import type { SentMessage } from "./MessageEntry.js"
import { ContentCounter } from "./ports/ContentCounter.js"
import { Ids } from "./ports/Ids.js"
import type {
  AcceptOutcome,
  AcceptPlan,
  Channel,
  IdempotencyRecord,
  MarketRow,
  MessageItem,
  SenderIdGrantRow,
  SendSnapshot,
  WalletDebit
} from "./ports/SendStore.js"
import { classifyAcceptDefects, SendStore } from "./ports/SendStore.js"
import { checkDuplicateContent } from "./send/DuplicateContent.js"

// ---------------------------------------------------------------------------------------------
// Inputs, outputs, settings
// ---------------------------------------------------------------------------------------------

/** Who sends: resolved by authentication. */
export interface SendCaller {
  readonly accountId: string
  readonly apiKeyId: string | null
  /** `test` = sandbox key (decisions §12). */
  readonly mode: "live" | "test"
  /** `api` (default) or `web` (portal). */
  readonly channel?: Channel | undefined
  /** The `Idempotency-Key` header, if given. */
  readonly idempotencyKey?: string | undefined
}

/** What a send answers. The HTTP layer puts `data` in the envelope, `idempotent_replay: true` at
 * the top level when set, and `mode: "sandbox"` when `sandbox`. */
export interface SendOutcome<A> {
  readonly data: A
  readonly idempotent_replay: boolean
  readonly sandbox: boolean
}

/** A skipped recipient (decisions §15). */
export interface CampaignFailure {
  readonly recipient: string
  readonly index: number
  readonly error_code: string
  readonly reason: string
}

/** Campaign fields of spec §2.4 shared by v1 and v2, plus what was charged. */
export interface CampaignData {
  readonly uid: string
  readonly name: string
  readonly status: "queued" | "scheduled"
  readonly recipient_count: number
  readonly queued_count: number
  readonly failed_count: number
  readonly scheduled_at: string | null
  readonly failures: ReadonlyArray<CampaignFailure>
  /** Total units charged. */
  readonly units: number
  /** Units charged per destination country (ISO2), sorted by country. */
  readonly charges: ReadonlyArray<{ readonly country: string; readonly units: number }>
  /** spec §2.9. v1: the text's encoding. v2: the campaign's: `final` Unicode if any message is,
   * `segments`/`characters` the largest, `changes` summed over the messages. */
  readonly encoding: Encoding
}

/** The `data` of a bulk-v1 answer: the campaign and one result per accepted recipient. */
export interface CampaignV1 extends CampaignData {
  /** One entry per queued/scheduled recipient. */
  readonly results: ReadonlyArray<{ readonly recipient: string; readonly status: string; readonly message_uid: string }>
}

/** The `data` of a bulk-v2 answer: the campaign and each accepted recipient's rendered, priced message. */
export interface CampaignV2 extends CampaignData {
  /** One entry per queued/scheduled recipient with its own price. */
  readonly messages: ReadonlyArray<{
    readonly message_uid: string
    readonly recipient: string
    readonly units: number
    readonly status: string
    readonly encoding: Encoding["final"]
  }>
}

/** Errors of a refused send: all `DEFINITELY_NOT_ACCEPTED`. */
export type SendError =
  | ValidationFailed
  | AccountInactive
  | SenderIdNotApproved
  | CountryNotAvailable
  | RouteNotVerified
  | RecipientOptedOut
  | SpamPolicyViolation
  | NoProviderRoute
  | ProviderCreditExhausted
  | InsufficientBalance
  | IdempotencyKeyReused
  | EmptyMessage
  | MessageTooLong
  | TagExpressionInvalid
  | DuplicateRecipient
  | DuplicateContentRateLimited

/** Settings of the send use cases (`SendConfig`): part sizing, spam policy, idempotency lifetime, default country. */
export interface SendSettings {
  /** decisions §9 `pricing.partSizing`. */
  readonly partSizing: PartSizing
  /** Base spam policy; the `spam_rules` rows (`blocked_phrase`, `blocked_domain`) are added to it. */
  readonly spamPolicy: SpamPolicy
  readonly idempotencyTtl: Duration.Duration
  /** Country whose national format (leading 0) recipients may use; none by default. */
  readonly defaultCountry: CountryCode | undefined
  /** decisions §7: the same (sender ID, text) at most this many times per window (default 30). */
  readonly duplicateLimit: number
  /** decisions §7: the window of the duplicate-content limit (default 10 minutes). */
  readonly duplicateWindow: Duration.Duration
}

/** Settings of the send use cases; override with `Layer.succeed(SendConfig, {...})`. */
export class SendConfig extends Context.Reference<SendConfig>()("@tuma/core/SendConfig", {
  defaultValue: (): SendSettings => ({
    partSizing: "single",
    spamPolicy: defaultSpamPolicy,
    idempotencyTtl: IDEMPOTENCY_TTL,
    defaultCountry: undefined,
    duplicateLimit: 30,
    duplicateWindow: Duration.minutes(10)
  })
}) {}

/** The endpoint names that enter the idempotency fingerprint (aliases share them). */
export const SEND_ENDPOINTS = {
  single: "POST /v1/sms/messages",
  bulkV1: "POST /v1/sms/send-bulk",
  bulkV2: "POST /v2/sms/send-bulk"
} as const

// ---------------------------------------------------------------------------------------------
// Checks over a snapshot
// ---------------------------------------------------------------------------------------------

type RecipientRefusal =
  | SenderIdNotApproved
  | CountryNotAvailable
  | RouteNotVerified
  | RecipientOptedOut
  | SpamPolicyViolation
  | NoProviderRoute
  | ProviderCreditExhausted
  | InsufficientBalance
  | EmptyMessage
  | MessageTooLong
  | TagExpressionInvalid
  | DuplicateRecipient

interface Checked {
  readonly market: MarketRow
  readonly sender: SenderIdGrantRow
}

const policyCache = new Map<string, SpamPolicy>()

/**
 * The base policy without the built-in phrases switched off, plus the store's rules (cached by rule
 * set and switches, so compiled regexes are reused).
 */
const effectivePolicy = (
  base: SpamPolicy,
  rules: SendSnapshot["spamRules"],
  off: SendSnapshot["spamBuiltinOff"] = []
): SpamPolicy => {
  if (rules.length === 0 && off.length === 0) return base
  const key = rules.map((r) => r.id).sort().join(",") +
    (off.length === 0 ? "" : `\u0000${[...off].sort().join("\u0001")}`)
  const cached = policyCache.get(key)
  if (cached !== undefined && cached !== base) return cached
  const phrases = rules.filter((r) => r.kind === "blocked_phrase").map((r) => r.pattern)
  const domains = rules.filter((r) => r.kind === "blocked_domain").map((r) => r.pattern)
  const policy: SpamPolicy = {
    blockedPhrases: [...withoutPhrases(base, off).blockedPhrases, ...phrases],
    links: { ...base.links, blockedDomains: [...base.links.blockedDomains, ...domains] }
  }
  if (policyCache.size > 256) policyCache.clear()
  policyCache.set(key, policy)
  return policy
}

const makeChecker = (snap: SendSnapshot, senderName: string, base: SpamPolicy) => {
  const markets = new Map(snap.markets.map((m) => [m.iso2, m]))
  const verified = new Set(snap.verifiedMarketIds)
  const optedOut = new Set(snap.optedOut)
  const policy = effectivePolicy(base, snap.spamRules, snap.spamBuiltinOff)
  const spamByText = new Map<string, Either.Either<void, SpamPolicyViolation>>()
  const spam = (text: string) => {
    let r = spamByText.get(text)
    if (r === undefined) {
      r = checkSpam(policy, text)
      spamByText.set(text, r)
    }
    return r
  }
  const approved = snap.senderIds.filter((s) => s.status === "approved")
  const global = approved.find((s) => s.is_global)
  const senderByMarket = new Map<string | undefined, SenderIdGrantRow | undefined>()
  const senderFor = (marketId: string | undefined) => {
    if (senderByMarket.has(marketId)) return senderByMarket.get(marketId)
    const found = approved.find((s) => s.market_id === marketId) ?? global
    senderByMarket.set(marketId, found)
    return found
  }

  /** market open → sender ID → route verified → opt-out → spam policy (decisions §29: market first). */
  const check = (e164: string, country: string, text: string): Either.Either<Checked, RecipientRefusal> => {
    const market = markets.get(country)
    if (market === undefined || !market.open) {
      return Either.left(
        new CountryNotAvailable({
          message: `Sending to ${market?.name ?? country} is not available.`,
          country
        })
      )
    }
    const sender = senderFor(market.id)
    if (sender === undefined) {
      const pending = snap.senderIds.find((s) => s.market_id === market.id) ??
        snap.senderIds.find((s) => s.status !== "approved")
      return Either.left(
        new SenderIdNotApproved({
          message: pending === undefined
            ? `The sender ID ${senderName} is not approved on your account for ${market.name}.`
            : `The sender ID ${senderName} is ${pending.status}, not approved for ${market.name}.`,
          sender_id: senderName
        })
      )
    }
    if (!verified.has(market.id)) {
      return Either.left(
        new RouteNotVerified({
          message: `Your account has no verified SMS route for ${market.name}.`,
          country
        })
      )
    }
    if (optedOut.size > 0) {
      const opt = checkOptOut(optedOut, e164)
      if (Either.isLeft(opt)) return Either.left(opt.left)
    }
    const s = spam(text)
    if (Either.isLeft(s)) return Either.left(s.left)
    return Either.right({ market, sender })
  }

  const capacity = new Map(snap.providerCapacity.map((p) => [p.market_id, { routes: p.routes, credit: p.credit }]))
  /** Provider route and provider credit for `units` more to this market (not consumed). */
  const provider = (market: MarketRow, units: number, used: number): RecipientRefusal | undefined => {
    const c = capacity.get(market.id)
    if (c === undefined || c.routes === 0) {
      return new NoProviderRoute({
        message: `No provider route is available for ${market.name}.`,
        country: market.iso2
      })
    }
    if (c.credit - used < units) {
      return new ProviderCreditExhausted({
        message: `Provider credit for ${market.name} is exhausted.`,
        country: market.iso2
      })
    }
    return undefined
  }
  const wallets = new Map(snap.wallets.map((w) => [w.market_id, w]))
  const balanceOf = (marketId: string) => {
    const w = wallets.get(marketId)
    return w === undefined || !w.enabled ? 0 : w.balance
  }
  return { check, provider, wallets, balanceOf, markets }
}

const accountCheck = (snap: SendSnapshot): Effect.Effect<void, AccountInactive> =>
  snap.account?.active === true ? Effect.void : new AccountInactive({ message: "Your account is not active." })

const insufficientFor = (
  country: string,
  required: number,
  available: number
) =>
  new InsufficientBalance({
    message: `Insufficient balance: ${required} units needed in ${country}, ${available} available.`,
    units_required: required,
    units_available: available,
    shortfall: [{ country, units_required: required, units_available: available }]
  })

/** decisions §29: the 422's message is the first field error's text. */
const invalidRecipients = (errors: Record<string, Array<string>>) => validationFailed(errors)

const analyze = (
  text: string,
  partSizing: PartSizing
): Either.Either<{ text: string; encoding: Encoding; units: number }, EmptyMessage | MessageTooLong> => {
  const a = analyzeBody(text, { partSizing })
  if (a.encoding.segments === 0 || a.text.trim() === "") {
    return Either.left(new EmptyMessageError({ message: "The message is empty: there is nothing to send." }))
  }
  if (a.encoding.characters > BODY_MAX_LENGTH) {
    return Either.left(
      new MessageTooLongError({
        message: `The message is ${a.encoding.characters} characters long; at most ${BODY_MAX_LENGTH} are allowed.`,
        characters: a.encoding.characters
      })
    )
  }
  return Either.right({ text: a.text, encoding: a.encoding, units: unitsPerRecipient(a.encoding) })
}

/** The campaign-level encoding of v2: the union of its messages' encodings. */
const mergeEncodings = (encodings: ReadonlyArray<Encoding>): Encoding => {
  const first = encodings[0]
  if (encodings.length === 1) return first
  const changes = new Map<string, EncodingChange>()
  let unicode = false
  let requestedUnicode = false
  let converted = false
  let segments = 0
  let characters = 0
  let notice: string | undefined
  for (const e of encodings) {
    unicode ||= e.final === "Unicode"
    requestedUnicode ||= e.requested === "Unicode"
    converted ||= e.converted
    segments = Math.max(segments, e.segments)
    characters = Math.max(characters, e.characters)
    notice ??= e.notice
    for (const c of e.changes) {
      const prev = changes.get(c.character)
      changes.set(c.character, prev === undefined ? c : { ...prev, occurrences: prev.occurrences + c.occurrences })
    }
  }
  const merged: Encoding = {
    requested: requestedUnicode ? "Unicode" : "GSM-7",
    final: unicode ? "Unicode" : "GSM-7",
    converted,
    segments,
    characters,
    characters_per_sms: unicode ? 70 : 160,
    changes: [...changes.values()]
  }
  return notice === undefined ? merged : { ...merged, notice }
}

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
  /** POST /v1/sms/send-bulk. */
  readonly bulkV1: (caller: SendCaller, request: BulkSendV1Request) => Effect.Effect<SendOutcome<CampaignV1>, SendError>
  /** POST /v2/sms/send-bulk. */
  readonly bulkV2: (caller: SendCaller, request: BulkSendV2Request) => Effect.Effect<SendOutcome<CampaignV2>, SendError>
}>() {
  static readonly layer: Layer.Layer<Send, never, SendStore | Ids | ContentCounter> = Layer.effect(
    Send,
    Effect.gen(function*() {
      const store = yield* SendStore
      const ids = yield* Ids
      const counter = yield* ContentCounter
      return Send.of(makeSend(store, ids, counter))
    })
  )
}

interface Candidate {
  readonly index: number
  readonly e164: string
  readonly country: string
  readonly text: string
  readonly encoding: Encoding
  readonly units: number
}

interface Failure {
  readonly index: number
  readonly recipient: string
  readonly error: RecipientRefusal
}

interface Accepted extends Candidate {
  readonly id: string
  readonly market: MarketRow
  readonly sender: SenderIdGrantRow
}

const failureEntry = (f: Failure): CampaignFailure => ({
  recipient: f.recipient,
  index: f.index,
  error_code: f.error.error_code,
  reason: f.error.message
})

const makeSend = (store: SendStore["Type"], ids: Ids["Type"], counter: ContentCounter["Type"]) => {
  const nowDate = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

  /** Replay or conflict of a stored record, if the caller's key has one. */
  const decideRecord = <A>(record: IdempotencyRecord, fingerprint: string) =>
    record.fingerprint === fingerprint
      ? Effect.succeed<SendOutcome<A>>({ data: record.response as A, idempotent_replay: true, sandbox: false })
      : Effect.fail(
        new IdempotencyKeyReused({
          message: "This Idempotency-Key was already used with a different request. Use a new key for a new message."
        })
      )

  /**
   * Runs a live send under the idempotency rules: replay/conflict up front; after a refusal, look
   * again (a concurrent first request may have committed meanwhile and must be replayed).
   */
  const idempotent = <A>(
    caller: SendCaller,
    endpoint: string,
    request: unknown,
    run: (fingerprint: string | undefined) => Effect.Effect<SendOutcome<A>, SendError>
  ): Effect.Effect<SendOutcome<A>, SendError> => {
    const key = caller.idempotencyKey
    if (key === undefined || caller.mode === "test") return run(undefined)
    const fingerprint = idempotencyFingerprint(endpoint, request)
    const lookup = Effect.flatMap(nowDate, (now) => store.findIdempotency(caller.accountId, key, now))
    return Effect.flatMap(
      lookup,
      Option.match({
        onSome: (record) => decideRecord<A>(record, fingerprint),
        onNone: () =>
          run(fingerprint).pipe(
            Effect.catchIf(
              (e) => e._tag !== "IdempotencyKeyReused",
              (e): Effect.Effect<SendOutcome<A>, SendError> =>
                Effect.flatMap(
                  lookup,
                  (found): Effect.Effect<SendOutcome<A>, SendError> =>
                    Option.isSome(found) ? decideRecord<A>(found.value, fingerprint) : Effect.fail(e)
                )
            )
          )
      })
    )
  }

  const idempotencyClaim = (
    caller: SendCaller,
    endpoint: string,
    fingerprint: string | undefined,
    now: Date,
    response: unknown
  ) =>
    Effect.map(SendConfig, (cfg) =>
      fingerprint === undefined || caller.idempotencyKey === undefined
        ? undefined
        : {
          key: caller.idempotencyKey,
          endpoint,
          fingerprint,
          expires_at: new Date(now.getTime() + Duration.toMillis(cfg.idempotencyTtl)),
          response
        })

  const shortfallError = (
    outcome: Extract<AcceptOutcome, { _tag: "InsufficientFunds" }>,
    markets: ReadonlyMap<string, MarketRow>,
    totalRequired: number
  ) => {
    const byId = new Map([...markets.values()].map((m) => [m.id, m.iso2]))
    const shortfall = outcome.shortfall.map((s) => ({
      country: byId.get(s.market_id) ?? s.market_id,
      units_required: s.units_required,
      units_available: s.units_available
    }))
    const missing = shortfall.reduce((n, s) => n + s.units_required - s.units_available, 0)
    return new InsufficientBalance({
      message: `Insufficient balance: ${
        shortfall.map((s) => `${s.units_required} units needed in ${s.country}, ${s.units_available} available`).join(
          "; "
        )
      }.`,
      units_required: totalRequired,
      units_available: totalRequired - missing,
      shortfall
    })
  }

  const afterAccept = <A>(
    outcome: AcceptOutcome,
    fingerprint: string | undefined,
    data: A,
    onInsufficient: (o: Extract<AcceptOutcome, { _tag: "InsufficientFunds" }>) => SendError
  ): Effect.Effect<SendOutcome<A>, SendError> => {
    switch (outcome._tag) {
      case "Accepted":
        return Effect.succeed({ data, idempotent_replay: false, sandbox: false })
      case "KeyTaken":
        return decideRecord<A>(outcome.record, fingerprint!)
      case "InsufficientFunds":
        return Effect.fail(onInsufficient(outcome))
    }
  }

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

  // ------------------------------------------------------------------------------------------
  // bulk (shared by v1 and v2)
  // ------------------------------------------------------------------------------------------

  interface BulkInput {
    readonly version: "v1" | "v2"
    readonly endpoint: string
    readonly request: unknown
    readonly senderId: string
    readonly campaignName: string | null
    readonly scheduledAt: string | null | undefined
    readonly count: number
    /** Normalised recipients (invalid ones already refused). */
    readonly recipients: ReadonlyArray<NormalizedRecipient & { readonly raw: string }>
    /** The finished text of recipient `index`. */
    readonly textOf: (index: number) => Either.Either<string, TagExpressionInvalid>
  }

  const bulk = (caller: SendCaller, input: BulkInput) =>
    idempotent<CampaignData & { results?: unknown; messages?: unknown }>(
      caller,
      input.endpoint,
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

          // dedupe (first wins), render, convert and price every recipient
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
              analyzed = analyze(rendered.right, cfg.partSizing)
              analyzedByText.set(rendered.right, analyzed)
            }
            if (Either.isLeft(analyzed)) {
              failures.push({ index, recipient: r.e164, error: analyzed.left })
              continue
            }
            candidates.push({ index, e164: r.e164, country: r.country, ...analyzed.right })
          }

          const countries = [...new Set(candidates.map((c) => c.country))]
          const plan = (snap: SendSnapshot) => {
            const checker = makeChecker(snap, senderName, cfg.spamPolicy)
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
                if (input.version === "v1") {
                  // v1 skips the recipients the wallet cannot cover, in order
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

          const attempt = (round: number): Effect.Effect<SendOutcome<any>, SendError> =>
            Effect.gen(function*() {
              const snap = yield* store.snapshot({
                accountId: caller.accountId,
                senderName,
                countries,
                recipients: candidates.map((c) => c.e164)
              })
              yield* accountCheck(snap)
              const { accepted: planned, checker, failed } = plan(snap)
              if (planned.length === 0) {
                // nothing can be sent: refuse with the first recipient's reason
                failed.sort((a, b) => a.index - b.index)
                return yield* Effect.fail(failed[0].error)
              }
              if (!sandbox && input.version === "v2") {
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
              const campaignId = yield* ids.uuidV7
              const status = scheduled === null ? "queued" as const : "scheduled" as const
              const name = input.campaignName ?? `Campaign ${now.toISOString().slice(0, 16).replace("T", " ")}`
              const charges = new Map<string, { marketId: string; units: number }>()
              let units = 0
              for (const a of accepted) {
                units += a.units
                const c = charges.get(a.country)
                if (c === undefined) charges.set(a.country, { marketId: a.market.id, units: a.units })
                else c.units += a.units
              }
              const senderDisplay = accepted[0].sender.display_name
              const base: CampaignData = {
                uid: campaignId,
                name,
                status,
                recipient_count: input.count,
                queued_count: accepted.length,
                failed_count: failed.length,
                scheduled_at: scheduled === null ? null : scheduled.toISOString(),
                failures: failed.map(failureEntry),
                units,
                charges: [...charges].map(([country, c]) => ({ country, units: c.units })).sort((a, b) =>
                  a.country < b.country ? -1 : 1
                ),
                encoding: input.version === "v1"
                  ? accepted[0].encoding
                  : mergeEncodings([...new Set(accepted.map((a) => a.encoding))])
              }
              const data = input.version === "v1"
                ? {
                  ...base,
                  results: accepted.map((a) => ({ recipient: a.e164, status, message_uid: a.id }))
                } satisfies CampaignV1
                : {
                  ...base,
                  messages: accepted.map((a) => ({
                    message_uid: a.id,
                    recipient: a.e164,
                    units: a.units,
                    status,
                    encoding: a.encoding.final
                  }))
                } satisfies CampaignV2
              if (sandbox) return { data, idempotent_replay: false, sandbox: true }

              const debits: Array<WalletDebit> = [...charges.values()].map((c) => ({
                wallet_id: checker.wallets.get(c.marketId)!.id,
                market_id: c.marketId,
                units: c.units
              }))
              const channel = caller.channel ?? "api"
              const outcome = yield* classifyAcceptDefects(store.accept({
                accountId: caller.accountId,
                now,
                idempotency: yield* idempotencyClaim(caller, input.endpoint, fingerprint, now, data),
                debits,
                campaign: {
                  id: campaignId,
                  account_id: caller.accountId,
                  api_key_id: caller.apiKeyId,
                  api_version: input.version,
                  name,
                  sender_id: senderDisplay,
                  status,
                  recipient_count: input.count,
                  queued_count: accepted.length,
                  failed_count: failed.length,
                  units,
                  failures: base.failures,
                  scheduled_at: scheduled,
                  created_at: now
                },
                messages: {
                  common: {
                    account_id: caller.accountId,
                    api_key_id: caller.apiKeyId,
                    campaign_id: campaignId,
                    sender_id: senderDisplay,
                    channel,
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
              }))
              if (outcome._tag === "InsufficientFunds" && input.version === "v1" && round < 3) {
                // balances moved since the snapshot: plan again (v1 skips who no longer fits)
                return yield* attempt(round + 1)
              }
              return yield* afterAccept(outcome, fingerprint, data, (o) => shortfallError(o, checker.markets, units))
            })
          return yield* attempt(1)
        })
    )

  // ------------------------------------------------------------------------------------------
  // v1 and v2 front ends
  // ------------------------------------------------------------------------------------------

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

  const bulkV1 = (caller: SendCaller, request: BulkSendV1Request) =>
    Effect.gen(function*() {
      const cfg = yield* SendConfig
      const { campaign_name, text } = resolveBulkV1(request)
      const recipients = normalizeAll(request.recipients, (i) => `recipients.${i}`, cfg.defaultCountry)
      if (Either.isLeft(recipients)) return yield* recipients.left
      const rendered = Either.right(text)
      return (yield* bulk(caller, {
        version: "v1",
        endpoint: SEND_ENDPOINTS.bulkV1,
        request,
        senderId: request.sender_id,
        campaignName: campaign_name,
        scheduledAt: request.scheduled_at,
        count: request.recipients.length,
        recipients: recipients.right,
        textOf: () => rendered
      })) as SendOutcome<CampaignV1>
    })

  const bulkV2 = (caller: SendCaller, request: BulkSendV2Request) =>
    Effect.gen(function*() {
      const cfg = yield* SendConfig
      const split = request.recipients.map(splitBulkRecipient)
      const recipients = normalizeAll(
        split.map((s) => s.to),
        (i) => typeof request.recipients[i] === "string" ? `recipients.${i}` : `recipients.${i}.to`,
        cfg.defaultCountry
      )
      if (Either.isLeft(recipients)) return yield* recipients.left
      const template = compileTemplate(request.message)
      if (Either.isLeft(template)) {
        return yield* validationFailed({ message: [template.left.message] })
      }
      const compiled = template.right
      return (yield* bulk(caller, {
        version: "v2",
        endpoint: SEND_ENDPOINTS.bulkV2,
        request,
        senderId: request.sender_id,
        campaignName: request.campaign_name ?? null,
        scheduledAt: request.scheduled_at,
        count: request.recipients.length,
        recipients: recipients.right,
        textOf: (i) => renderCompiled(compiled, split[i].values)
      })) as SendOutcome<CampaignV2>
    })

  return { single, bulkV1, bulkV2 }
}

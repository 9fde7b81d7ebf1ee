/**
 * The checks of spec §1 over one store snapshot (market, sender ID, route, opt-out, spam, provider route and credit, wallet), and the body analysis (encoding, parts, units) they price with.
 */
import type { EmptyMessage, Encoding, EncodingChange, MessageTooLong, PartSizing, SpamPolicy } from "@tuma/domain"
import {
  AccountInactive,
  analyzeBody,
  BODY_MAX_LENGTH,
  checkOptOut,
  checkSpam,
  CountryNotAvailable,
  DuplicateRecipient,
  EmptyMessage as EmptyMessageError,
  InsufficientBalance,
  MessageTooLong as MessageTooLongError,
  NoProviderRoute,
  ProviderCreditExhausted,
  RecipientOptedOut,
  RouteNotVerified,
  SenderIdNotApproved,
  SpamPolicyViolation,
  TagExpressionInvalid,
  unitsPerRecipient,
  validationFailed,
  withoutPhrases
} from "@tuma/domain"
import { Effect, Either } from "effect"
import type { MarketRow, SenderIdGrantRow, SendSnapshot } from "../ports/SendStore.js"

// ---------------------------------------------------------------------------------------------
// Checks over a snapshot
// ---------------------------------------------------------------------------------------------

export type RecipientRefusal =
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

export interface Checked {
  readonly market: MarketRow
  readonly sender: SenderIdGrantRow
}

export const policyCache = new Map<string, SpamPolicy>()

/**
 * The base policy without the built-in phrases switched off, plus the store's rules (cached by rule
 * set and switches, so compiled regexes are reused).
 */
export const effectivePolicy = (
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

const checkers = new WeakMap<SendSnapshot, { readonly base: SpamPolicy; readonly checker: Checker }>()

/**
 * `makeChecker`, kept with the snapshot it was made for (a reused snapshot — `snapshotCache.ts` — is
 * checked many times: its maps and the effective spam policy are built once). A snapshot is read for
 * one sender ID, so the sender name is the same on every call with that snapshot.
 */
export const checkerOf = (snap: SendSnapshot, senderName: string, base: SpamPolicy): Checker => {
  const kept = checkers.get(snap)
  if (kept !== undefined && kept.base === base) return kept.checker
  const checker = makeChecker(snap, senderName, base)
  checkers.set(snap, { base, checker })
  return checker
}

/** The checks of spec §1 over one snapshot (`makeChecker`). */
export type Checker = ReturnType<typeof makeChecker>

export const makeChecker = (snap: SendSnapshot, senderName: string, base: SpamPolicy) => {
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

/** Spec §1's first check: the account exists and is active (the refusal, or `undefined`). */
export const inactiveAccount = (snap: SendSnapshot): AccountInactive | undefined =>
  snap.account?.active === true ? undefined : new AccountInactive({ message: "Your account is not active." })

export const accountCheck = (snap: SendSnapshot): Effect.Effect<void, AccountInactive> => {
  const inactive = inactiveAccount(snap)
  return inactive === undefined ? Effect.void : Effect.fail(inactive)
}

export const insufficientFor = (
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
export const invalidRecipients = (errors: Record<string, Array<string>>) => validationFailed(errors)

export const analyze = (
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
export const mergeEncodings = (encodings: ReadonlyArray<Encoding>): Encoding => {
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

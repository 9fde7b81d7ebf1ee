/**
 * The preview of a text before it is sent, as a use case: its encoding (with what was converted),
 * its parts as the handset receives them, the units one recipient costs, and — for a recipient —
 * the country it is in, what the account's wallet there can spend and whether that covers it.
 * The price preview of a campaign likewise: bulk v2 in sandbox mode (every check against the
 * account's real records), its units per country against what each wallet can spend, and the
 * first recipients' personalised texts.
 * Nothing is stored or sent; the portal's live previews and any embedding backend get the same figures.
 *
 *   previewOf(accountId, { body, recipient? }) — the preview of a text
 *   campaignPreviewOf(caller, request)          — the price preview of a bulk v2 campaign
 *   spendable(wallets, country)                 — what a country's wallet can spend
 */
import type { CountryCode } from "@tuma/domain"
import type { BulkSendV2Request, Encoding } from "@tuma/domain"
import {
  analyzeBody,
  compileTemplate,
  normalizeRecipient,
  renderCompiled,
  splitBulkRecipient,
  splitParts,
  unitsPerRecipient
} from "@tuma/domain"
import { Effect, Either } from "effect"
import { Admin } from "../admin/Admin.js"
import type { SendCaller, SendSettings } from "./model.js"
import { SendConfig } from "./model.js"
import { Send } from "./Send.js"

/** How many recipients' personalised texts a campaign preview shows. */
const SAMPLES = 3

/** What a country's wallet can spend: its balance, or 0 when the account has none there or it is disabled. */
export const spendable = (
  wallets: ReadonlyArray<{ readonly country: string; readonly enabled: boolean; readonly balance: number }>,
  country: string
) => {
  const w = wallets.find((x) => x.country === country)
  return w === undefined || !w.enabled ? 0 : w.balance
}

/** The preview of `body` for the account, and of its cost to `recipient` when one is given. */
export const previewOf = (
  accountId: string,
  input: { readonly body: string; readonly recipient?: string | undefined },
  /** The country whose national numbers the recipient may be written in (the account's, in the portal). */
  localCountry?: CountryCode | undefined
) =>
  Effect.gen(function*() {
    const cfg = yield* SendConfig
    const analyzed = analyzeBody(input.body, { partSizing: cfg.partSizing })
    const units = unitsPerRecipient(analyzed.encoding)
    let country: string | null = null
    let balance: number | null = null
    let recipientError: string | null = null
    if (input.recipient !== undefined && input.recipient.trim() !== "") {
      const r = normalizeRecipient(input.recipient, { defaultCountry: localCountry ?? cfg.defaultCountry })
      if (Either.isLeft(r)) {
        recipientError = r.left.message
      } else {
        country = r.right.country
        const admin = yield* Admin
        balance = spendable(yield* admin.listWallets(accountId), country)
      }
    }
    return {
      encoding: analyzed.encoding,
      text: analyzed.text,
      parts: analyzed.encoding.segments === 0 ? [] : splitParts(analyzed.text, analyzed.encoding.final),
      units,
      country,
      balance,
      sufficient: balance === null ? null : balance >= units,
      recipient_error: recipientError
    }
  })

/**
 * The price preview of a bulk v2 campaign for `caller` (its mode and idempotency key are ignored):
 * `Send.bulkV2` in sandbox mode — the same checks against the account's real records, nothing
 * stored or charged, a refused request fails as the send would — then, per country charged, the
 * recipients and units against what its wallet can spend (`sufficient` when every wallet covers its
 * part: bulk v2 is all-or-nothing), and the first recipients' personalised texts with their encoding
 * and units.
 */
export const campaignPreviewOf = (
  caller: Omit<SendCaller, "mode" | "idempotencyKey">,
  request: BulkSendV2Request
) =>
  Effect.gen(function*() {
    const cfg = yield* SendConfig
    const send = yield* Send
    const admin = yield* Admin
    const outcome = yield* send.bulkV2({ ...caller, mode: "test", idempotencyKey: undefined }, request)
    const data = outcome.data
    const wallets = yield* admin.listWallets(caller.accountId)
    const recipientsBy = new Map<string, number>()
    for (const m of data.messages) {
      const r = normalizeRecipient(m.recipient, { defaultCountry: cfg.defaultCountry })
      if (Either.isRight(r)) recipientsBy.set(r.right.country, (recipientsBy.get(r.right.country) ?? 0) + 1)
    }
    const countries = data.charges.map((c) => {
      const balance = spendable(wallets, c.country)
      return {
        country: c.country,
        recipients: recipientsBy.get(c.country) ?? 0,
        units: c.units,
        balance,
        sufficient: balance >= c.units
      }
    })
    return {
      recipients: request.recipients.length,
      sendable: data.messages.length,
      units: data.units,
      countries,
      sufficient: countries.every((c) => c.sufficient),
      samples: samplesOf(request, cfg.partSizing, new Set(data.failures.map((f) => f.index))),
      failures: data.failures
    }
  })

/**
 * The first recipients' personalised texts: a recipient the send would refuse (`refused`, by index)
 * or whose text does not render is left out.
 */
const samplesOf = (
  request: BulkSendV2Request,
  partSizing: SendSettings["partSizing"],
  refused: ReadonlySet<number>
) => {
  const samples: Array<{ recipient: string; text: string; encoding: Encoding; units: number }> = []
  const compiled = compileTemplate(request.message)
  if (Either.isLeft(compiled)) return samples
  for (const [i, r] of request.recipients.entries()) {
    if (samples.length >= SAMPLES) break
    if (refused.has(i)) continue
    const { to, values } = splitBulkRecipient(r)
    const text = renderCompiled(compiled.right, values)
    if (Either.isLeft(text)) continue
    const a = analyzeBody(text.right, { partSizing })
    samples.push({ recipient: to, text: a.text, encoding: a.encoding, units: unitsPerRecipient(a.encoding) })
  }
  return samples
}

/**
 * The preview of a text before it is sent, as a use case: its encoding (with what was converted),
 * its parts as the handset receives them, the units one recipient costs, and — for a recipient —
 * the country it is in, what the account's wallet there can spend and whether that covers it.
 * Nothing is stored or sent; the portal's live preview and any embedding backend get the same figures.
 *
 *   previewOf(accountId, { body, recipient? }) — the preview
 *   spendable(wallets, country)                 — what a country's wallet can spend
 */
import type { CountryCode } from "@tuma/domain"
import { analyzeBody, normalizeRecipient, splitParts, unitsPerRecipient } from "@tuma/domain"
import { Effect, Either } from "effect"
import { Admin } from "../admin/Admin.js"
import { SendConfig } from "./model.js"

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

/**
 * Pricing (decisions.md §6, §11, §15): one unit of the destination country's wallet per segment per
 * recipient; campaign totals per country; the all-or-nothing balance check of bulk v2.
 *
 * Pure functions. The balance check answers an `Either` (effect): `Either.right(totals)` when every
 * country's wallet covers its part, `Either.left(InsufficientBalance)` otherwise, so it composes
 * with `yield*` inside `Effect.gen` and with `Either.match` outside Effect.
 */
import { Either } from "effect"
import type { Encoding } from "./encoding.js"
import { InsufficientBalance, type Shortfall } from "./errors.js"

/** Units one recipient is charged for a message: its segments (decisions.md §11). */
export const unitsPerRecipient = (encoding: Pick<Encoding, "segments">): number => encoding.segments

/** One priced recipient: destination country (ISO 3166 alpha-2, e.g. `TZ`) and units. */
export interface PricedRecipient {
  readonly country: string
  readonly units: number
}

/** Units and recipients of one destination country. */
export interface CountryTotal {
  readonly country: string
  readonly recipients: number
  readonly units: number
}

/** Totals of a campaign; `countries` is sorted by country code. */
export interface CampaignTotals {
  readonly recipients: number
  readonly units: number
  readonly countries: ReadonlyArray<CountryTotal>
}

/** Wallet balances by country (ISO alpha-2), as a Map or a plain record. */
export type Balances = ReadonlyMap<string, number> | Readonly<Record<string, number>>

/** Sums the units of every recipient per destination country. */
export const campaignTotals = (recipients: Iterable<PricedRecipient>): CampaignTotals => {
  const byCountry = new Map<string, { recipients: number; units: number }>()
  let count = 0
  let units = 0
  for (const r of recipients) {
    if (!Number.isSafeInteger(r.units) || r.units < 0) {
      throw new RangeError(`campaignTotals: units must be a non-negative integer, got ${r.units}`)
    }
    count++
    units += r.units
    const t = byCountry.get(r.country)
    if (t === undefined) byCountry.set(r.country, { recipients: 1, units: r.units })
    else {
      t.recipients++
      t.units += r.units
    }
  }
  const countries = Array.from(byCountry, ([country, t]): CountryTotal => ({ country, ...t }))
  countries.sort((a, b) => (a.country < b.country ? -1 : a.country > b.country ? 1 : 0))
  return { recipients: count, units, countries }
}

const isBalanceMap = (balances: Balances): balances is ReadonlyMap<string, number> => balances instanceof Map

const balanceOf = (balances: Balances, country: string): number => {
  const raw = isBalanceMap(balances)
    ? balances.get(country)
    : Object.hasOwn(balances, country)
    ? balances[country]
    : undefined
  return raw === undefined || !(raw > 0) ? 0 : raw
}

/**
 * The all-or-nothing check of bulk v2 (spec §4.6, decisions.md §6, §15): succeeds with the totals
 * when every country's wallet holds at least that country's units; otherwise fails with
 * `InsufficientBalance` whose `shortfall` lists each short country (`units_required`, and the wallet
 * balance as `units_available`), `units_required` is the campaign total, and `units_available` the
 * part of it the wallets can cover (Σ min(balance, required) per country), so
 * `units_required - units_available` is exactly what must be bought. A country without a wallet
 * has 0 units; negative or non-numeric balances count as 0.
 */
export const checkCampaignBalance = (
  totals: CampaignTotals,
  balances: Balances
): Either.Either<CampaignTotals, InsufficientBalance> => {
  const shortfall: Array<Shortfall> = []
  let covered = 0
  for (const c of totals.countries) {
    const available = balanceOf(balances, c.country)
    covered += Math.min(available, c.units)
    if (available < c.units) {
      shortfall.push({ country: c.country, units_required: c.units, units_available: available })
    }
  }
  if (shortfall.length === 0) return Either.right(totals)
  const detail = shortfall
    .map((s) => `${s.units_required} in ${s.country} (${s.units_available} available)`)
    .join(", ")
  return Either.left(
    new InsufficientBalance({
      message: `Insufficient balance: the campaign needs ${detail}.`,
      units_required: totals.units,
      units_available: covered,
      shortfall
    })
  )
}

/** `campaignTotals` then `checkCampaignBalance`. */
export const priceCampaign = (
  recipients: Iterable<PricedRecipient>,
  balances: Balances
): Either.Either<CampaignTotals, InsufficientBalance> => checkCampaignBalance(campaignTotals(recipients), balances)

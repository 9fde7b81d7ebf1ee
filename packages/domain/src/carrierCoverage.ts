/**
 * Which open markets a carrier set serves — the one home of two operator rules (docs/decisions.md,
 * "Carrier coverage"):
 *
 * - a market is **served** when at least one carrier that Tuma can start (enabled, and its settings
 *   pass `providerConfigErrors`) has an enabled route to it; an open market that is not served
 *   accepts sends that then fail "no carrier route";
 * - disabling a carrier that is the last one serving a market needs an explicit confirmation
 *   (`marketsLeftWithoutCarrier` names the markets it would leave unserved).
 *
 *   carrierWarnings(markets, carriers)          — what the console's overview warns about
 *   marketsLeftWithoutCarrier(markets, carriers, id) — open markets only carrier `id` serves
 */
import { providerConfigErrors } from "./providerConfig.js"

/** A carrier as these rules see it: its settings and its routes by market (ISO 3166 alpha-2). */
export interface CarrierRoutes {
  readonly id: string
  readonly name: string
  readonly kind: string
  readonly config: unknown
  readonly enabled: boolean
  readonly routes: ReadonlyArray<{ readonly iso2: string; readonly enabled: boolean }>
}

/** A market as these rules see it. */
export interface CoverageMarket {
  readonly iso2: string
  readonly name: string
  readonly open: boolean
}

/** What the operator is warned about: an open market no carrier serves, or an enabled carrier Tuma cannot start. */
export type CarrierWarning =
  | { readonly kind: "market_without_carrier"; readonly country: string; readonly country_name: string }
  | {
    readonly kind: "carrier_not_started"
    readonly provider_uid: string
    readonly provider: string
    /** The settings' field errors (`config.host: The field is required.`), in English. */
    readonly reason: string
  }

/** Why Tuma cannot start a carrier (its settings' errors as one line), or undefined when it can. */
export const notStartedReason = (carrier: Pick<CarrierRoutes, "kind" | "config">): string | undefined => {
  const errors = Object.entries(providerConfigErrors(carrier.kind, carrier.config))
  return errors.length === 0 ? undefined : errors.map(([field, m]) => `${field}: ${m.join(" ")}`).join("; ")
}

/** True when `carrier` carries traffic to `iso2`: enabled, startable, with an enabled route there. */
const serves = (carrier: CarrierRoutes, iso2: string) =>
  carrier.enabled && notStartedReason(carrier) === undefined &&
  carrier.routes.some((r) => r.enabled && r.iso2.toUpperCase() === iso2.toUpperCase())

/** The warnings of the overview: open markets without a carrier (by name), then carriers that cannot start. */
export const carrierWarnings = (
  markets: ReadonlyArray<CoverageMarket>,
  carriers: ReadonlyArray<CarrierRoutes>
): ReadonlyArray<CarrierWarning> => {
  const out: Array<CarrierWarning> = []
  for (const m of [...markets].sort((a, b) => a.name.localeCompare(b.name))) {
    if (m.open && !carriers.some((c) => serves(c, m.iso2))) {
      out.push({ kind: "market_without_carrier", country: m.iso2, country_name: m.name })
    }
  }
  for (const c of carriers) {
    const reason = c.enabled ? notStartedReason(c) : undefined
    if (reason !== undefined) out.push({ kind: "carrier_not_started", provider_uid: c.id, provider: c.name, reason })
  }
  return out
}

/**
 * The open markets (ISO codes, sorted) that carrier `id` serves and no other carrier does: disabling
 * it leaves them without a route. Empty when it serves none alone (or is not serving at all); a
 * closed market takes no sends, so it is not counted.
 */
export const marketsLeftWithoutCarrier = (
  markets: ReadonlyArray<CoverageMarket>,
  carriers: ReadonlyArray<CarrierRoutes>,
  id: string
): ReadonlyArray<string> => {
  const carrier = carriers.find((c) => c.id === id)
  if (carrier === undefined) return []
  const open = new Set(markets.filter((m) => m.open).map((m) => m.iso2.toUpperCase()))
  const served = new Set(carrier.routes.filter((r) => serves(carrier, r.iso2)).map((r) => r.iso2.toUpperCase()))
  return [...served].filter((iso2) => open.has(iso2) && !carriers.some((c) => c.id !== id && serves(c, iso2))).sort()
}

/**
 * Carrier coverage: an open market no startable carrier serves is warned about, a carrier Tuma cannot
 * start is warned about with its reason, and disabling the last carrier of an open market is named.
 */
import { describe, expect, it } from "@effect/vitest"
import type { CarrierRoutes, CoverageMarket } from "../src/index.js"
import { carrierWarnings, marketsLeftWithoutCarrier } from "../src/index.js"

const markets: ReadonlyArray<CoverageMarket> = [
  { iso2: "TZ", name: "Tanzania", open: true },
  { iso2: "KE", name: "Kenya", open: true },
  { iso2: "UG", name: "Uganda", open: false }
]
const carrier = (id: string, routes: ReadonlyArray<string>, extra: Partial<CarrierRoutes> = {}): CarrierRoutes => ({
  id,
  name: `carrier ${id}`,
  kind: "simulated",
  config: {},
  enabled: true,
  routes: routes.map((iso2) => ({ iso2, enabled: true })),
  ...extra
})

describe("carrier coverage", () => {
  it("an open market without an enabled, startable carrier with an enabled route is warned about", () => {
    expect(carrierWarnings(markets, [carrier("a", ["TZ", "KE", "UG"])])).toEqual([])
    expect(carrierWarnings(markets, [carrier("a", ["TZ"])])).toEqual([
      { kind: "market_without_carrier", country: "KE", country_name: "Kenya" }
    ])
    // disabled carrier, disabled route: the market is not served (a closed market is never warned about)
    expect(carrierWarnings(markets, [carrier("a", ["TZ", "KE"], { enabled: false })]).map((w) => w.kind)).toEqual([
      "market_without_carrier",
      "market_without_carrier"
    ])
    expect(
      carrierWarnings(markets, [carrier("a", ["KE"]), {
        ...carrier("b", []),
        routes: [{ iso2: "TZ", enabled: false }]
      }])
    ).toEqual([{ kind: "market_without_carrier", country: "TZ", country_name: "Tanzania" }])
  })

  it("an enabled smpp carrier without host or credentials is 'not started', with the reason, and serves nothing", () => {
    const broken = carrier("s", ["TZ", "KE"], { kind: "smpp", name: "Halotel", config: { port: 2775 } })
    const warnings = carrierWarnings(markets, [broken])
    expect(warnings.filter((w) => w.kind === "market_without_carrier")).toHaveLength(2)
    expect(warnings.find((w) => w.kind === "carrier_not_started")).toEqual({
      kind: "carrier_not_started",
      provider_uid: "s",
      provider: "Halotel",
      reason: "config.host: The field is required.; config.systemId: The field is required.; " +
        "config.password: The field is required."
    })
    // disabled, it is not warned about as not started
    expect(carrierWarnings(markets, [{ ...broken, enabled: false }]).map((w) => w.kind)).not.toContain(
      "carrier_not_started"
    )
  })

  it("disabling the last carrier of an open market names that market; a second carrier or a closed market does not", () => {
    expect(marketsLeftWithoutCarrier(markets, [carrier("a", ["TZ", "KE", "UG"])], "a")).toEqual(["KE", "TZ"])
    expect(marketsLeftWithoutCarrier(markets, [carrier("a", ["TZ", "KE"]), carrier("b", ["KE"])], "a")).toEqual([
      "TZ"
    ])
    expect(marketsLeftWithoutCarrier(markets, [carrier("a", ["TZ"]), carrier("b", ["TZ"])], "a")).toEqual([])
    // the other carrier is disabled: it does not count
    expect(
      marketsLeftWithoutCarrier(markets, [carrier("a", ["TZ"]), carrier("b", ["TZ"], { enabled: false })], "a")
    ).toEqual(["TZ"])
    // already disabled, or unknown: nothing to confirm
    expect(marketsLeftWithoutCarrier(markets, [carrier("a", ["TZ"], { enabled: false })], "a")).toEqual([])
    expect(marketsLeftWithoutCarrier(markets, [], "x")).toEqual([])
  })
})

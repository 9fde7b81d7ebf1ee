import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, FastCheck as fc } from "effect"
import {
  analyzeBody,
  campaignTotals,
  checkCampaignBalance,
  InsufficientBalance,
  priceCampaign,
  unitsPerRecipient
} from "../src/index.js"

describe("unitsPerRecipient", () => {
  it("is one unit per segment of the finished message", () => {
    expect(unitsPerRecipient(analyzeBody("Hello").encoding)).toBe(1)
    expect(unitsPerRecipient(analyzeBody("a".repeat(161)).encoding)).toBe(2)
    expect(unitsPerRecipient(analyzeBody("Ж".repeat(71)).encoding)).toBe(2)
    expect(unitsPerRecipient(analyzeBody("a".repeat(307), { partSizing: "concatenated" }).encoding)).toBe(3)
    expect(unitsPerRecipient(analyzeBody("😀").encoding)).toBe(0)
  })
})

describe("campaignTotals", () => {
  it("sums units and recipients per destination country, countries sorted", () => {
    const totals = campaignTotals([
      { country: "TZ", units: 2 },
      { country: "KE", units: 1 },
      { country: "TZ", units: 3 },
      { country: "UG", units: 1 },
      { country: "KE", units: 4 }
    ])
    expect(totals).toEqual({
      recipients: 5,
      units: 11,
      countries: [
        { country: "KE", recipients: 2, units: 5 },
        { country: "TZ", recipients: 2, units: 5 },
        { country: "UG", recipients: 1, units: 1 }
      ]
    })
  })

  it("of nobody is zero", () => {
    expect(campaignTotals([])).toEqual({ recipients: 0, units: 0, countries: [] })
  })

  it("refuses units that are not non-negative integers", () => {
    expect(() => campaignTotals([{ country: "TZ", units: -1 }])).toThrow(RangeError)
    expect(() => campaignTotals([{ country: "TZ", units: 1.5 }])).toThrow(RangeError)
  })

  it.prop("the total is the sum of the country totals, whatever the order of recipients", {
    rs: fc.array(fc.record({ country: fc.constantFrom("TZ", "KE", "UG", "RW"), units: fc.nat(20) }), {
      maxLength: 200
    })
  }, ({ rs }) => {
    const t = campaignTotals(rs)
    expect(t.units).toBe(rs.reduce((a, r) => a + r.units, 0))
    expect(t.countries.reduce((a, c) => a + c.units, 0)).toBe(t.units)
    expect(t.countries.reduce((a, c) => a + c.recipients, 0)).toBe(rs.length)
    expect(campaignTotals([...rs].reverse())).toEqual(t)
  })
})

describe("checkCampaignBalance (bulk v2, all or nothing)", () => {
  const totals = campaignTotals([
    { country: "TZ", units: 60 },
    { country: "TZ", units: 60 },
    { country: "KE", units: 40 },
    { country: "UG", units: 10 }
  ])

  it("succeeds with the totals when every country's wallet covers its part (exactly is enough)", () => {
    const ok = checkCampaignBalance(totals, { TZ: 120, KE: 40, UG: 1000 })
    expect(Either.isRight(ok)).toBe(true)
    expect(Either.getOrThrow(ok)).toBe(totals)
    expect(Either.isRight(checkCampaignBalance(totals, new Map([["TZ", 500], ["KE", 41], ["UG", 10]])))).toBe(true)
  })

  it("fails with INSUFFICIENT_BALANCE listing each short country (decisions.md §6)", () => {
    const result = checkCampaignBalance(totals, { TZ: 100, KE: 0, UG: 10_000, RW: 5000 })
    if (Either.isRight(result)) throw new Error("expected a Left")
    const error = result.left
    expect(error).toBeInstanceOf(InsufficientBalance)
    expect(error.error_code).toBe("INSUFFICIENT_BALANCE")
    expect(error.shortfall).toEqual([
      { country: "KE", units_required: 40, units_available: 0 },
      { country: "TZ", units_required: 120, units_available: 100 }
    ])
    expect(error.units_required).toBe(170)
    // What the wallets can cover of this campaign: 100 (TZ) + 0 (KE) + 10 (UG).
    expect(error.units_available).toBe(110)
    expect(error.message).toBe(
      "Insufficient balance: the campaign needs 40 in KE (0 available), 120 in TZ (100 available)."
    )
  })

  it("one country short is enough to refuse the whole campaign, even when other wallets are rich", () => {
    const result = checkCampaignBalance(totals, { TZ: 1_000_000, KE: 39, UG: 1_000_000 })
    expect(Either.isLeft(result)).toBe(true)
  })

  it("a country without a wallet, or with a negative balance, has nothing available", () => {
    const result = checkCampaignBalance(totals, { TZ: 120, KE: -5 })
    expect(Either.isLeft(result)).toBe(true)
    if (Either.isLeft(result)) {
      expect(result.left.shortfall).toEqual([
        { country: "KE", units_required: 40, units_available: 0 },
        { country: "UG", units_required: 10, units_available: 0 }
      ])
    }
    // Object prototype keys are not balances.
    const proto = checkCampaignBalance(campaignTotals([{ country: "constructor", units: 1 }]), {})
    expect(Either.isLeft(proto)).toBe(true)
  })

  it.prop("accepts exactly when every country is covered; the shortfall is what must be bought", {
    rs: fc.array(fc.record({ country: fc.constantFrom("TZ", "KE", "UG"), units: fc.nat(10) }), { maxLength: 60 }),
    wallet: fc.record({ TZ: fc.nat(200), KE: fc.nat(200), UG: fc.nat(200) })
  }, ({ rs, wallet }) => {
    const t = campaignTotals(rs)
    const result = checkCampaignBalance(t, wallet)
    const covered = t.countries.every((c) => wallet[c.country as "TZ"] >= c.units)
    expect(Either.isRight(result)).toBe(covered)
    if (Either.isLeft(result)) {
      const e = result.left
      const missing = e.shortfall.reduce((a, s) => a + s.units_required - s.units_available, 0)
      expect(e.units_required - e.units_available).toBe(missing)
      expect(e.shortfall.every((s) => s.units_available < s.units_required)).toBe(true)
    }
  })

  it.effect("composes with Effect.gen: a Left fails the effect with the typed error", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(
        Effect.gen(function*() {
          return yield* priceCampaign([{ country: "TZ", units: 3 }], { TZ: 2 })
        })
      )
      expect(error._tag).toBe("InsufficientBalance")
      expect(error.units_required).toBe(3)
      expect(error.units_available).toBe(2)
      const ok = yield* priceCampaign([{ country: "TZ", units: 3 }], { TZ: 3 })
      expect(ok.units).toBe(3)
    }))
})

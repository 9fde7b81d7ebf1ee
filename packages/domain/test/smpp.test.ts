import { describe, expect, it } from "vitest"
import type { Bucket } from "../src/smpp.js"
import {
  commandStatusOf,
  leaseParts,
  newSmppPassword,
  receiptText,
  smppAccountSettings,
  smppDate,
  smppOwnerChangeProblems,
  takeParts
} from "../src/smpp.js"

describe("smpp rules", () => {
  it("validates credentials: system_id ≤ 15, burst ≥ rate, CIDRs", () => {
    expect(smppAccountSettings({ system_id: "acme" })).toEqual({
      ok: { system_id: "acme", mode: "live", rate: 50, burst: 50, max_binds: 2, allowed_ips: [] }
    })
    expect(smppAccountSettings({ system_id: "a".repeat(16) })).toHaveProperty("problems.system_id")
    expect(smppAccountSettings({ system_id: "a b" })).toHaveProperty("problems.system_id")
    expect(smppAccountSettings({ system_id: "a", throughput: { rate: 10, burst: 5 } })).toHaveProperty(
      ["problems", "throughput.burst"]
    )
    // a refused rate is said once: the burst below it is not said wrong too
    expect(smppAccountSettings({ system_id: "a", throughput: { rate: 20_000, burst: 40 } })).toEqual({
      problems: { "throughput.rate": ["The throughput must be a whole number of parts per second, from 1 to 10000."] }
    })
    expect(smppAccountSettings({ system_id: "a", allowed_ips: ["1.2.3.4/40"] })).toHaveProperty(
      ["problems", "allowed_ips.0"]
    )
  })

  it("an owner may send the operator's limits back unchanged, never other ones (raised or lowered)", () => {
    const current = { rate: 20, burst: 40, max_binds: 3 }
    expect(smppOwnerChangeProblems(current, {})).toBeUndefined()
    expect(smppOwnerChangeProblems(current, { throughput: { rate: 20, burst: 40 }, max_binds: 3 })).toBeUndefined()
    expect(smppOwnerChangeProblems(current, { throughput: { rate: 20 } })).toBeUndefined()
    for (const throughput of [{ rate: 21 }, { rate: 19 }, { rate: 20, burst: 39 }, { rate: 20, burst: 41 }]) {
      expect(smppOwnerChangeProblems(current, { throughput })).toHaveProperty("throughput")
    }
    expect(smppOwnerChangeProblems(current, { max_binds: 2 })).toEqual({
      max_binds: ["The throughput and the number of binds are set by your provider; ask them to change these."]
    })
    expect(smppOwnerChangeProblems(current, { max_binds: 4 })).toHaveProperty("max_binds")
  })

  it("makes 8-character passwords of an unambiguous alphabet", () => {
    for (let i = 0; i < 200; i++) expect(newSmppPassword()).toMatch(/^[A-HJ-NP-Za-km-z2-9]{8}$/)
  })

  it("counts throughput in parts with a burst, refilled at the rate", () => {
    const limits = { rate: 2, burst: 3 }
    let r = takeParts(undefined, 0, limits, 3)
    expect(r.allowed).toBe(true)
    r = takeParts(r.bucket, 0, limits, 1)
    expect(r.allowed).toBe(false)
    r = takeParts(r.bucket, 500, limits, 1)
    expect(r.allowed).toBe(true)
    r = takeParts(r.bucket, 500, limits, 1)
    expect(r.allowed).toBe(false)
  })

  it("leases tokens from the shared bucket: whole tokens up to want, none below atLeast, unspent ones given back", () => {
    const limits = { rate: 10, burst: 20 }
    // a fresh bucket is full: the lease takes what it wants
    let l = leaseParts(undefined, 0, limits, { want: 5, atLeast: 1, returned: 0 })
    expect(l.granted).toBe(5)
    expect(l.bucket.tokens).toBe(15)
    // a second process drains it; fewer than atLeast left: refused, and told when `want` is back
    l = leaseParts(l.bucket, 0, limits, { want: 15, atLeast: 1, returned: 0 })
    expect(l.granted).toBe(15)
    l = leaseParts(l.bucket, 50, limits, { want: 5, atLeast: 2, returned: 0 })
    expect(l.granted).toBe(0)
    expect(l.refillMillis).toBe(450)
    // refilled at the rate: 0.5 + 10/s × 0.2 s = 2.5 → 2 whole tokens granted of the 5 wanted
    l = leaseParts(l.bucket, 250, limits, { want: 5, atLeast: 1, returned: 0 })
    expect(l.granted).toBe(2)
    expect(l.bucket.tokens).toBeCloseTo(0.5)
    // unspent tokens go back first, never past the burst
    l = leaseParts(l.bucket, 250, limits, { want: 0, atLeast: 0, returned: 3 })
    expect(l.granted).toBe(0)
    expect(l.bucket.tokens).toBeCloseTo(3.5)
    l = leaseParts(l.bucket, 10_000, limits, { want: 0, atLeast: 0, returned: 30 })
    expect(l.bucket.tokens).toBe(20)
    // over any span, what all leases granted is at most burst + rate × span
    let bucket: Bucket | undefined
    let total = 0
    for (let t = 0; t <= 10_000; t += 7) {
      const r = leaseParts(bucket, t, limits, { want: 3, atLeast: 1, returned: 0 })
      bucket = r.bucket
      total += r.granted
    }
    expect(total).toBeLessThanOrEqual(20 + 10 * 10)
    expect(total).toBeGreaterThanOrEqual(20 + 10 * 10 - 1)
  })

  it("writes the standard receipt text and maps refusals", () => {
    const at = new Date("2026-11-27T08:05:00Z")
    expect(smppDate(at)).toBe("2611270805")
    expect(receiptText({ messageId: "u1", status: "failed", submittedAt: at, doneAt: at, text: "x".repeat(30) }))
      .toBe(
        "id:u1 sub:001 dlvrd:000 submit date:2611270805 done date:2611270805 stat:UNDELIV err:001 text:" +
          "x".repeat(20)
      )
    expect(commandStatusOf("SENDER_ID_NOT_APPROVED")).toBe(0x0a)
    expect(commandStatusOf("INSUFFICIENT_BALANCE")).toBe(0x405)
    expect(commandStatusOf("SOMETHING_NEW")).toBe(0x45)
  })
})

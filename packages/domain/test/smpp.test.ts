import { describe, expect, it } from "vitest"
import { commandStatusOf, newSmppPassword, receiptText, smppAccountSettings, smppDate, takeParts } from "../src/smpp.js"

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
    expect(smppAccountSettings({ system_id: "a", allowed_ips: ["1.2.3.4/40"] })).toHaveProperty(
      ["problems", "allowed_ips.0"]
    )
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

/**
 * The admin feature's guard of unrouted paths (`unroutedAdminProblem`), which the server hands to the
 * envelope: under `/admin/v1` a request without the operator token gets a 401 message (so unknown
 * operator paths reveal nothing), elsewhere the guard stays out of the way.
 */
import { describe, expect, it } from "@effect/vitest"
import { Redacted } from "effect"
import { unroutedAdminProblem } from "../src/admin/AdminToken.js"

const withToken = { adminToken: Redacted.make("s3cret") }

describe("unroutedAdminProblem", () => {
  it("leaves paths outside /admin/v1 alone, token or not", () => {
    expect(unroutedAdminProblem(withToken, "/v1/nope", {})).toBeNull()
    expect(unroutedAdminProblem({ adminToken: undefined }, "/admin/v10", {})).toBeNull()
  })

  it("refuses /admin/v1 and everything under it without the right token", () => {
    expect(unroutedAdminProblem(withToken, "/admin/v1", {})).toBe("Invalid or missing admin token.")
    expect(unroutedAdminProblem(withToken, "/admin/v1/nope", { authorization: "Bearer wrong" })).toBe(
      "Invalid or missing admin token."
    )
    expect(unroutedAdminProblem({ adminToken: undefined }, "/admin/v1/nope", {})).toMatch(/disabled/)
  })

  it("lets the operator through to 404/405", () => {
    expect(unroutedAdminProblem(withToken, "/admin/v1/nope", { authorization: "Bearer s3cret" })).toBeNull()
  })
})

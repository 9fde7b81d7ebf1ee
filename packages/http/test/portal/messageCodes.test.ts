/**
 * Messages in the customer's language (issue 26): a failure of the portal's and the console's APIs carries
 * `details` — its message and every field error as catalogue codes and parameters — while the REST API's
 * envelope stays exactly as it was (no `details`, the same English `message`, `error_code` and `errors`).
 */
import { describeMessage } from "@tuma/domain"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call } from "../harness.js"
import type { PortalServer } from "./harness.js"
import { accountWithUser, Agent, drivers, signedIn, startPortal } from "./harness.js"

describe.each(drivers)("failure details (%s)", (driver) => {
  let server: PortalServer
  beforeAll(async () => {
    server = await startPortal(driver)
  })
  afterAll(() => server?.close())

  it("a portal send's field errors come with codes and the field as a parameter", async () => {
    const { email } = await accountWithUser(server, "owner")
    const agent = await signedIn(server, email)
    const r = await agent.post("/portal/api/sms", { recipient: "+255 abc", sender_id: "", body: "Habari" })
    expect(r.status).toBe(422)
    expect(r.body.error_code).toBe("VALIDATION_FAILED")
    const details = r.body.details
    expect(details.message.code).toBe(describeMessage(r.body.message)?.code)
    // every English field error has its described twin, in the same order
    for (const [path, list] of Object.entries(r.body.errors as Record<string, Array<string>>)) {
      expect(details.errors[path]).toHaveLength(list.length)
      list.forEach((english, i) => expect(details.errors[path][i]).toEqual(describeMessage(english)))
    }
    const codes = Object.values(details.errors).flat().map((d: any) => d?.code)
    expect(codes).toEqual(expect.arrayContaining(["field.format", "field.required"]))
    expect(details.errors.recipient).toEqual([{ code: "field.format", params: { field: "recipient" } }])
    expect(codes).not.toContain(undefined)
  })

  it("a wrong password is a code, not only an English sentence", async () => {
    const { email } = await accountWithUser(server, "owner")
    const r = await new Agent(server).signIn(email, "not the password")
    expect(r.status).toBe(401)
    expect(r.body.details).toEqual({ message: { code: "session.wrong_credentials", params: {} } })
  })

  it("the REST API's envelope is unchanged: no details, the same English", async () => {
    const { live } = await accountWithUser(server, "owner")
    const r = await call(server, "POST", "/v1/sms/messages", {
      key: live,
      body: { recipient: "+255 abc", sender_id: "TUMA", message: "Habari" }
    })
    expect(r.status).toBe(422)
    expect(Object.keys(r.body).sort()).toEqual(
      ["acceptance_state", "error_code", "errors", "message", "request_uid", "success"]
    )
    expect(r.body.errors.recipient).toEqual(["The recipient field format is invalid."])
    expect(r.body.message).toMatch(/^The recipient field format is invalid\. \(and \d+ more errors?\)$/)
  })
})

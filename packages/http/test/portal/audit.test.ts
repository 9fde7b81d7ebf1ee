/**
 * The audit log and the customer portal (issue 15), over a socket: a key a portal user creates and
 * revokes, and a webhook endpoint they create, go through core's `Admin` / `WebhookAdmin` and are
 * recorded with the portal user as the actor (`portal:<email>`, kind `system`, the client's
 * address), never as an operator, and without the key or the secret.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call } from "../harness.js"
import type { PortalServer } from "./harness.js"
import { accountWithUser, ADMIN_TOKEN, drivers, signedIn, startPortal } from "./harness.js"

describe.each(drivers)("portal changes in the audit log (%s)", (driver) => {
  let server: PortalServer
  beforeAll(async () => {
    server = await startPortal(driver)
  }, 60_000)
  afterAll(async () => {
    await server?.close()
  })

  it("a portal user's key and webhook changes are recorded as portal:<email>", async () => {
    const owner = await accountWithUser(server, "owner")
    const agent = await signedIn(server, owner.email)
    const created = await agent.post("/portal/api/api-keys", { name: "shop", mode: "live" })
    expect(created.status).toBe(201)
    const keyUid = created.body.data.api_key.uid
    const hook = await agent.post("/portal/api/webhooks", {
      api_key_uid: keyUid,
      url: "https://hooks.example.com/portal-audit"
    })
    expect(hook.status).toBe(201)
    expect((await agent.post(`/portal/api/api-keys/${keyUid}/revoke`)).status).toBe(200)

    const log = await call(server, "GET", `/admin/v1/audit-log?actor=${encodeURIComponent(`portal:${owner.email}`)}`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` }
    })
    expect(log.status).toBe(200)
    expect(log.body.data.map((e: any) => [e.action, e.target, e.actor_kind, e.ip])).toEqual([
      ["api_key.revoke", `api_key:${keyUid}`, "system", "127.0.0.1"],
      ["webhook.create", `webhook:${hook.body.data.endpoint.uid}`, "system", "127.0.0.1"],
      ["api_key.issue", `api_key:${keyUid}`, "system", "127.0.0.1"]
    ])
    expect(log.text).not.toContain(created.body.data.key)
    expect(log.text).not.toContain(hook.body.data.secret)
  })
})

/**
 * API keys and webhooks from the portal, over HTTP on a socket, on PGlite and PostgreSQL: a key
 * created in the portal (shown once) works on the REST API with its scopes and allow-list until
 * it is revoked (then 401); a webhook endpoint created for it (secret shown once) receives a
 * signed test event at a local receiver, and a real signed `sms.delivered` delivery from the
 * workers, listed with its attempts and on the message's timeline; the secret is regenerated; a
 * disabled endpoint is re-enabled.
 */
import { SqlClient } from "@effect/sql"
import { verifyWebhookSignature } from "@tuma/domain/webhook"
import { Effect } from "effect"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as WebhookWorkers from "../../src/runtime/WebhookWorkers.js"
import { call } from "../harness.js"
import type { PortalServer } from "./harness.js"
import { accountWithUser, drivers, signedIn, startPortal } from "./harness.js"

interface Received {
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly body: string
}

const startReceiver = async () => {
  const received: Array<Received> = []
  const server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") })
      res.writeHead(200).end("ok")
    })
  })
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
  return { url, received, close: () => new Promise<void>((r) => server.close(() => r())) }
}

const waitFor = async <A>(f: () => Promise<A | undefined>, ms = 30_000): Promise<A> => {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    const v = await f()
    if (v !== undefined) return v
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error("timed out")
}

describe.each(drivers)("portal keys and webhooks (%s)", (driver) => {
  let server: PortalServer
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  let owner: Awaited<ReturnType<typeof accountWithUser>>
  beforeAll(async () => {
    receiver = await startReceiver()
    // the local receiver is a private address: only the operator allow-list permits it
    process.env.TUMA_WEBHOOK_ALLOW = "127.0.0.1"
    server = await startPortal(driver)
    owner = await accountWithUser(server, "owner")
    await server.startWorkers()
    await server.launch(WebhookWorkers.layer({}, { TUMA_WEBHOOK_POLL: "100ms", TUMA_WEBHOOK_ALLOW: "127.0.0.1" }))
  })
  afterAll(async () => {
    await server?.close()
    await receiver?.close()
  })

  it("a key created in the portal works on the API (scopes, allow-list) until revoked, then 401", async () => {
    const agent = await signedIn(server, owner.email)
    const bad = await agent.post("/portal/api/api-keys", { name: "", mode: "live" })
    expect(bad.status).toBe(422)
    const created = await agent.post("/portal/api/api-keys", {
      name: "shop backend",
      mode: "live",
      scopes: ["sms:read"],
      allowed_ips: ["127.0.0.1/32"]
    })
    expect(created.status).toBe(201)
    const key = created.body.data.key as string
    expect(key).toMatch(/^tuma_live_/)
    expect(created.body.data.api_key).toMatchObject({ name: "shop backend", mode: "live", status: "active" })
    // shown once: the list has the prefix only
    const listed = (await agent.get("/portal/api/api-keys")).body.data.find((k: any) =>
      k.uid === created.body.data.api_key.uid
    )
    expect(JSON.stringify(listed)).not.toContain(key)
    expect(key.startsWith(listed.prefix)).toBe(true)
    expect((await call(server, "GET", "/v1/balance", { key })).status).toBe(200)
    // the scope is enforced: no sms:send
    const send = await call(server, "POST", "/v1/sms/messages", {
      key,
      body: { recipient: "+255712345678", sender_id: "TUMA", body: "hi" }
    })
    expect(send.status).toBe(401)
    const sandbox = await agent.post("/portal/api/api-keys", { name: "tests", mode: "test" })
    expect(sandbox.body.data.key).toMatch(/^tuma_test_/)
    const revoked = await agent.post(`/portal/api/api-keys/${created.body.data.api_key.uid}/revoke`)
    expect(revoked.status).toBe(200)
    expect(revoked.body.data.status).toBe("revoked")
    const after = await call(server, "GET", "/v1/balance", { key })
    expect(after.status).toBe(401)
    expect(after.body.message).toMatch(/revoked/)
  })

  it("a key's expiry: refused in the past, shown in the list, and the key answers 401 once it passes", async () => {
    const agent = await signedIn(server, owner.email)
    const past = await agent.post("/portal/api/api-keys", {
      name: "old",
      mode: "live",
      expires_at: new Date(Date.now() - 60_000).toISOString()
    })
    expect(past.status).toBe(422)
    expect(Object.keys(past.body.errors)).toEqual(["expires_at"])
    const expiresAt = new Date(Date.now() + 3_000)
    const created = await agent.post("/portal/api/api-keys", {
      name: "short-lived",
      mode: "live",
      expires_at: expiresAt.toISOString()
    })
    expect(created.status).toBe(201)
    const listed = (await agent.get("/portal/api/api-keys")).body.data.find((k: any) =>
      k.uid === created.body.data.api_key.uid
    )
    expect(new Date(listed.expires_at).getTime()).toBe(expiresAt.getTime())
    const key = created.body.data.key as string
    expect((await call(server, "GET", "/v1/balance", { key })).status).toBe(200)
    await new Promise((r) => setTimeout(r, Math.max(0, expiresAt.getTime() - Date.now()) + 500))
    const after = await call(server, "GET", "/v1/balance", { key })
    expect(after.status).toBe(401)
  })

  it("webhooks: created with a secret shown once, a signed test event, real deliveries with attempts", async () => {
    const agent = await signedIn(server, owner.email)
    const created = await agent.post("/portal/api/webhooks", { api_key_uid: owner.liveId, url: receiver.url })
    expect(created.status).toBe(201)
    const secret = created.body.data.secret as string
    const hookId = created.body.data.endpoint.uid
    expect(secret).toMatch(/^whsec_/)
    expect(JSON.stringify((await agent.get("/portal/api/webhooks")).body.data)).not.toContain(secret)
    expect((await agent.post("/portal/api/webhooks", { api_key_uid: owner.liveId, url: receiver.url })).status).toBe(
      409
    )

    const test = await agent.post(`/portal/api/webhooks/${hookId}/test`)
    expect(test.status).toBe(200)
    expect(test.body.data).toMatchObject({ ok: true, response_status: 200, error: null })
    const got = receiver.received.find((r) => r.body === test.body.data.body)!
    expect(JSON.parse(got.body).event).toBe("webhook.test")
    expect(verifyWebhookSignature(got.body, got.headers["x-service-signature"] as string, secret)).toBe(true)
    // recorded under the endpoint's deliveries, finished, with its attempt
    const [recorded] = (await agent.get(`/portal/api/webhooks/${hookId}/deliveries`)).body.data
    expect(recorded).toMatchObject({ event: "webhook.test", status: "succeeded", attempts: 1, recipient: "" })
    expect(recorded.uid).toBe(JSON.parse(got.body).delivery_uid)
    expect(recorded.attempt_log).toMatchObject([{ attempt: 1, outcome: "success", response_status: 200 }])

    // a real delivery: an API send with the key reaches delivered, the workers post sms.delivered
    const sent = await call(server, "POST", "/v1/sms/messages", {
      key: owner.live,
      body: { recipient: "+255712345678", sender_id: "TUMA", body: "webhook me" }
    })
    expect(sent.status).toBe(202)
    const uid = sent.body.data.uid
    const delivery = await waitFor(async () => {
      const list = (await agent.get(`/portal/api/webhooks/${hookId}/deliveries`)).body.data
      const d = list.find((x: any) => x.message_uid === uid && x.status === "succeeded")
      return d
    })
    expect(delivery.event).toBe("sms.delivered")
    expect(delivery.attempt_log).toHaveLength(1)
    expect(delivery.attempt_log[0]).toMatchObject({ attempt: 1, outcome: "success", response_status: 200 })
    const posted = receiver.received.find((r) => r.body.includes(uid))!
    expect(verifyWebhookSignature(posted.body, posted.headers["x-service-signature"] as string, secret)).toBe(true)
    const detail = (await agent.get(`/portal/api/messages/${uid}`)).body.data
    expect(detail.webhooks.map((w: any) => w.uid)).toEqual([delivery.uid])

    // a new secret, shown once, signs from now on
    const regenerated = await agent.post(`/portal/api/webhooks/${hookId}/secret`)
    expect(regenerated.body.data.secret).not.toBe(secret)
    const test2 = await agent.post(`/portal/api/webhooks/${hookId}/test`)
    const got2 = receiver.received.find((r) => r.body === test2.body.data.body)!
    expect(
      verifyWebhookSignature(got2.body, got2.headers["x-service-signature"] as string, regenerated.body.data.secret)
    )
      .toBe(true)
  })

  it("re-enables an endpoint disabled by failures", async () => {
    const other = await accountWithUser(server, "owner")
    const agent = await signedIn(server, other.email)
    const created = await agent.post("/portal/api/webhooks", { api_key_uid: other.liveId, url: receiver.url })
    const hookId = created.body.data.endpoint.uid
    // as the workers leave it after the consecutive-failure limit
    await server.run(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) =>
          sql`UPDATE webhook_endpoints SET enabled = false, consecutive_failures = 10, disabled_at = now(),
        disabled_reason = 'disabled after 10 consecutive failures' WHERE id = ${hookId}`
      )
    )
    const disabled = (await agent.get("/portal/api/webhooks")).body.data[0]
    expect(disabled).toMatchObject({ enabled: false, disabled_reason: "disabled after 10 consecutive failures" })
    const enabled = await agent.post(`/portal/api/webhooks/${hookId}/enable`)
    expect(enabled.status).toBe(200)
    expect(enabled.body.data).toMatchObject({ enabled: true, consecutive_failures: 0, disabled_at: null })
    const off = await agent.post(`/portal/api/webhooks/${hookId}/disable`)
    expect(off.body.data.enabled).toBe(false)
  })
})

/**
 * An owner changes their own SMPP credentials on the portal (docs/smpp.md "Changing credentials",
 * docs/decisions.md "SMPP limits are the operator's"): `PATCH /portal/api/smpp-accounts/{uid}` changes the
 * addresses a bind may come from (a bind is then checked against them); the throughput and max_binds are
 * the operator's — another value than the present one is refused (422) and nothing changes; a bad address
 * changes nothing; a member may not (403); another account's credentials are 404, as unknown ones.
 */
import { PortalAccess } from "@tuma/core/portal/PortalAccess"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, setupAccount, unique } from "../harness.js"
import { PASSWORD, signedIn } from "../portal/harness.js"
import { ADMIN, bind, createCredentials, startSmppServer } from "./support.js"

type Server = Awaited<ReturnType<typeof startSmppServer>>

let server: Server
beforeAll(async () => {
  server = await startSmppServer()
}, 120_000)
afterAll(() => server?.close())

/** A portal user of the account, signed in. */
const portalUser = async (accountId: string, role: "owner" | "member") => {
  const email = `${unique("u")}@example.com`
  await server.run(Effect.flatMap(PortalAccess, (a) => a.ensureUser({ accountId, email, password: PASSWORD, role })))
  return { email, agent: await signedIn(server, email) }
}

/** Credentials granted by the operator (admin API): 20 parts/s, burst 40, 3 binds, from 10.0.0.0/8 only. */
const granted = async (accountId: string) => {
  const systemId = unique("o").slice(0, 15)
  const created = await createCredentials(server, {
    account_uid: accountId,
    system_id: systemId,
    throughput: { rate: 20, burst: 40 },
    max_binds: 3,
    allowed_ips: ["10.0.0.0/8"]
  })
  expect(created.status).toBe(201)
  return { systemId, uid: created.body.data.uid as string, password: created.body.data.password as string }
}

const stored = async (uid: string) =>
  (await call(server, "GET", `/admin/v1/smpp-accounts/${uid}`, { key: ADMIN })).body.data

describe("an owner changes their SMPP credentials", () => {
  it("changes the allowed addresses (binds are checked against them), audited with the owner as the actor", async () => {
    const accountId = (await server.run(setupAccount())).account.id
    const { agent, email } = await portalUser(accountId, "owner")
    const c = await granted(accountId)
    // 127.0.0.1 is outside 10.0.0.0/8
    const outside = await bind(server.smppPort, c.systemId, c.password, "bind_transmitter")
    expect(outside.resp.command_status).toBe(0x0d)
    outside.session.close()
    const changed = await agent.patch(`/portal/api/smpp-accounts/${c.uid}`, {
      allowed_ips: ["127.0.0.1", "10.0.0.0/8"]
    })
    expect(changed.status).toBe(200)
    expect(changed.body.data).toMatchObject({
      uid: c.uid,
      allowed_ips: ["127.0.0.1", "10.0.0.0/8"],
      throughput: { rate: 20, burst: 40 },
      max_binds: 3
    })
    expect(changed.body.data.account_uid).toBeUndefined()
    const inside = await bind(server.smppPort, c.systemId, c.password, "bind_transmitter")
    expect(inside.resp.command_status).toBe(0)
    inside.session.close()
    // the limits sent back unchanged (a form sending everything) are no change: accepted
    const same = await agent.patch(`/portal/api/smpp-accounts/${c.uid}`, {
      allowed_ips: [],
      throughput: { rate: 20, burst: 40 },
      max_binds: 3
    })
    expect(same.status).toBe(200)
    expect(same.body.data.allowed_ips).toEqual([])
    const audit = await call(server, "GET", `/admin/v1/audit-log?target=smpp_account:${c.uid}`, { key: ADMIN })
    const updates = (audit.body.data as Array<{ action: string; actor_name: string; before: any; after: any }>)
      .filter((e) => e.action === "smpp_account.update")
    expect(updates).toHaveLength(2)
    expect(updates[1]!.actor_name).toBe(`portal:${email}`)
    expect(updates[1]!.before.allowed_ips).toEqual(["10.0.0.0/8"])
    expect(updates[1]!.after.allowed_ips).toEqual(["127.0.0.1", "10.0.0.0/8"])
  })

  it("may not raise nor lower the throughput or max_binds, nor send a bad address: 422, nothing changes", async () => {
    const accountId = (await server.run(setupAccount())).account.id
    const { agent } = await portalUser(accountId, "owner")
    const c = await granted(accountId)
    const path = `/portal/api/smpp-accounts/${c.uid}`
    const before = await stored(c.uid)
    for (
      const [body, field] of [
        [{ throughput: { rate: 500 } }, "throughput"],
        [{ throughput: { rate: 5, burst: 5 } }, "throughput"],
        [{ throughput: { rate: 20, burst: 400 } }, "throughput"],
        [{ max_binds: 10 }, "max_binds"],
        [{ max_binds: 1, allowed_ips: ["127.0.0.1"] }, "max_binds"]
      ] as const
    ) {
      const refused = await agent.patch(path, body)
      expect(refused.status, JSON.stringify(body)).toBe(422)
      expect(refused.body.error_code).toBe("VALIDATION_FAILED")
      expect(refused.body.errors[field]).toEqual([
        "The throughput and the number of binds are set by your provider; ask them to change these."
      ])
      expect(refused.body.details.errors[field][0].code).toBe("smpp.limits_by_provider")
    }
    const bad = await agent.patch(path, { allowed_ips: ["127.0.0.1", "10.0.0.0/33"] })
    expect(bad.status).toBe(422)
    expect(bad.body.errors["allowed_ips.1"]).toEqual([
      "10.0.0.0/33 is not an IP address (like 196.41.2.10) or a range of addresses (like 196.41.2.0/24)."
    ])
    expect(bad.body.details.errors["allowed_ips.1"][0]).toEqual({
      code: "smpp.address",
      params: { address: "10.0.0.0/33" }
    })
    expect((await agent.patch(path, { allowed_ips: "127.0.0.1" })).status).toBe(422)
    expect(await stored(c.uid)).toEqual(before)
    const audit = await call(server, "GET", `/admin/v1/audit-log?target=smpp_account:${c.uid}`, { key: ADMIN })
    expect(audit.body.data.map((e: { action: string }) => e.action)).toEqual(["smpp_account.create"])
  })

  it("a member may not (403); another account's owner gets 404 and changes nothing", async () => {
    const accountId = (await server.run(setupAccount())).account.id
    const member = await portalUser(accountId, "member")
    const c = await granted(accountId)
    const path = `/portal/api/smpp-accounts/${c.uid}`
    const before = await stored(c.uid)
    expect((await member.agent.patch(path, { allowed_ips: ["127.0.0.1"] })).status).toBe(403)
    const stranger = await portalUser((await server.run(setupAccount())).account.id, "owner")
    const foreign = await stranger.agent.patch(path, { allowed_ips: ["127.0.0.1"] })
    expect(foreign.status).toBe(404)
    // as unknown credentials, whatever the body
    expect((await stranger.agent.patch(path, { max_binds: 1 })).status).toBe(404)
    expect((await stranger.agent.patch(`/portal/api/smpp-accounts/${crypto.randomUUID()}`, {})).status).toBe(404)
    expect((await stranger.agent.patch("/portal/api/smpp-accounts/nope", {})).status).toBe(404)
    expect(await stored(c.uid)).toEqual(before)
  })
})

describe("the operator's change is not bound by the owner's rule", () => {
  it("the admin API still raises and lowers the limits", async () => {
    const accountId = (await server.run(setupAccount())).account.id
    const c = await granted(accountId)
    const raised = await call(server, "PATCH", `/admin/v1/smpp-accounts/${c.uid}`, {
      key: ADMIN,
      body: { throughput: { rate: 200 }, max_binds: 5 }
    })
    expect(raised.status).toBe(200)
    expect(raised.body.data).toMatchObject({ throughput: { rate: 200, burst: 200 }, max_binds: 5 })
  })
})

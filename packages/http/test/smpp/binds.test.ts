/**
 * Live SMPP binds (docs/smpp.md "Live binds"): a node-smpp ESME binds, `GET /admin/v1/smpp-binds` lists it
 * with its figures, `DELETE /admin/v1/smpp-binds/{uid}` sends it `unbind` and closes it (recorded in the
 * audit log); disabling the credentials unbinds them too. On PostgreSQL (TUMA_TEST_DATABASE_URL) the bind
 * lives in one server and is unbound through another server's admin API: the request crosses over the
 * database (`smpp_binds` + `pg_notify`), as between `--workers` processes. The portal's SMPP page API:
 * an owner manages the account's own credentials and unbinds its own binds, a member only reads, another
 * account's credentials and binds are 404.
 */
import { PortalAccess } from "@tuma/core/portal/PortalAccess"
import { Database } from "@tuma/store-sql"
import { Effect, Exit, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, scratchDatabase, setupAccount, testDatabaseUrl, unique } from "../harness.js"
import { PASSWORD, signedIn } from "../portal/harness.js"
import { ADMIN, bind, createCredentials, eventually, next, request, startSmppServer } from "./support.js"

type Server = Awaited<ReturnType<typeof startSmppServer>>

const credentials = async (server: Server, accountUid: string) => {
  const system_id = unique("b").slice(0, 15)
  const created = await createCredentials(server, { account_uid: accountUid, system_id, max_binds: 3 })
  expect(created.status).toBe(201)
  return { systemId: system_id, password: created.body.data.password as string, uid: created.body.data.uid as string }
}

const bindsOf = async (server: Server, query = "") => {
  const list = await call(server, "GET", `/admin/v1/smpp-binds${query}`, { key: ADMIN })
  expect(list.status).toBe(200)
  return list.body.data as Array<Record<string, unknown>>
}

/** Resolves when the ESME was sent `unbind` and the connection closed. */
const unbound = (session: Awaited<ReturnType<typeof bind>>["session"]) =>
  Promise.all([next(session, "unbind"), new Promise<void>((resolve) => session.once("close", () => resolve()))])

// one PGlite server for the admin's and the portal's tests (starting one is most of this file's time)
let server: Server
let accountUid: string
beforeAll(async () => {
  server = await startSmppServer({ bindHeartbeatMs: 100 })
  accountUid = (await server.run(setupAccount())).account.id
})
afterAll(() => server.close())

describe("live binds on one server (PGlite)", () => {
  it("lists a bind with its figures, and the admin unbinds it: unbind sent, connection closed, audited", async () => {
    const c = await credentials(server, accountUid)
    const { session, resp } = await bind(server.smppPort, c.systemId, c.password, "bind_transceiver")
    expect(resp.command_status).toBe(0)
    const sent = await request(session, "submit_sm", {
      source_addr: "TUMA",
      dest_addr_ton: 1,
      destination_addr: "255712345678",
      short_message: Buffer.from("counted")
    })
    expect(sent.command_status).toBe(0)
    let listed: Record<string, unknown> | undefined
    await eventually(async () => {
      listed = (await bindsOf(server, `?account_uid=${accountUid}`)).find((b) => b.system_id === c.systemId)
      // the list is a heartbeat's snapshot: one taken between the submit and its answer shows it in flight
      return listed !== undefined && listed.submits_last_minute === 1 && listed.in_flight === 0
    })
    expect(listed).toMatchObject({
      smpp_account_uid: c.uid,
      account_uid: accountUid,
      bind_type: "transceiver",
      remote_address: expect.stringContaining("127.0.0.1"),
      in_flight: 0,
      unbind_requested_at: null
    })
    expect(listed!.submit_rate).toBeCloseTo(1 / 60, 1)
    expect(Date.parse(String(listed!.since))).toBeLessThanOrEqual(Date.now())

    const closing = unbound(session)
    const answer = await call(server, "DELETE", `/admin/v1/smpp-binds/${String(listed!.uid)}`, { key: ADMIN })
    expect(answer.status).toBe(200)
    expect(answer.body.data.uid).toBe(listed!.uid)
    expect(answer.body.data.unbind_requested_at).not.toBeNull()
    await closing
    await eventually(async () => !(await bindsOf(server)).some((b) => b.uid === listed!.uid))
    const again = await call(server, "DELETE", `/admin/v1/smpp-binds/${String(listed!.uid)}`, { key: ADMIN })
    expect(again.status).toBe(404)
    const audit = await call(server, "GET", `/admin/v1/audit-log?target=smpp_bind:${String(listed!.uid)}`, {
      key: ADMIN
    })
    expect(audit.body.data.map((e: { action: string }) => e.action)).toEqual(["smpp_bind.unbind"])
  })

  it("needs the admin token; an unknown or malformed bind is 404; disabling the credentials unbinds them", async () => {
    expect((await call(server, "GET", "/admin/v1/smpp-binds")).status).toBe(401)
    const unknown = await call(server, "DELETE", `/admin/v1/smpp-binds/0190a0a0-0000-7000-8000-000000000000`, {
      key: ADMIN
    })
    expect(unknown.status).toBe(404)
    expect((await call(server, "DELETE", "/admin/v1/smpp-binds/nope", { key: ADMIN })).status).toBe(404)
    const c = await credentials(server, accountUid)
    const a = await bind(server.smppPort, c.systemId, c.password, "bind_receiver")
    const b = await bind(server.smppPort, c.systemId, c.password, "bind_transmitter")
    await eventually(async () => (await bindsOf(server)).filter((x) => x.system_id === c.systemId).length === 2)
    const closing = Promise.all([unbound(a.session), unbound(b.session)])
    const disabled = await call(server, "POST", `/admin/v1/smpp-accounts/${c.uid}/disable`, { key: ADMIN })
    expect(disabled.status).toBe(200)
    await closing
    await eventually(async () => !(await bindsOf(server)).some((x) => x.system_id === c.systemId))
    const audit = await call(server, "GET", `/admin/v1/audit-log?target=smpp_account:${c.uid}`, { key: ADMIN })
    expect(audit.body.data.map((e: { action: string }) => e.action)).toEqual([
      "smpp_account.disable",
      "smpp_account.create"
    ])
    expect(JSON.stringify(audit.body.data)).not.toContain(c.password)
  })
})

/** A portal user of the account, signed in. */
const portalUser = async (accountId: string, role: "owner" | "member") => {
  const email = `${unique("u")}@example.com`
  await server.run(Effect.flatMap(PortalAccess, (a) => a.ensureUser({ accountId, email, password: PASSWORD, role })))
  return { email, agent: await signedIn(server, email) }
}

describe("the portal's SMPP page API", () => {
  it("an owner creates credentials (password once), binds, sees and unbinds the bind, rotates, disables, deletes", async () => {
    const accountId = (await server.run(setupAccount())).account.id
    const { agent, email } = await portalUser(accountId, "owner")
    const empty = await agent.get("/portal/api/smpp")
    expect(empty.status).toBe(200)
    expect(empty.body.data).toMatchObject({
      connection: { host: "127.0.0.1", port: server.smppPort, tls_port: null },
      accounts: [],
      binds: []
    })
    const systemId = unique("p").slice(0, 15)
    const created = await agent.post("/portal/api/smpp-accounts", {
      system_id: systemId,
      mode: "sandbox",
      allowed_ips: ["127.0.0.1"]
    })
    expect(created.status).toBe(201)
    const { uid, password } = created.body.data
    expect(password).toMatch(/^[A-Za-z0-9]{8}$/)
    expect(created.body.data).toMatchObject({
      system_id: systemId,
      mode: "sandbox",
      throughput: { rate: 50, burst: 50 }
    })
    expect(created.body.data.account_uid).toBeUndefined()
    // limits are the operator's: a throughput in the portal's body is not read
    const listed = await agent.get("/portal/api/smpp")
    expect(listed.text).not.toContain(password)
    expect(listed.body.data.accounts.map((a: { uid: string }) => a.uid)).toEqual([uid])

    const { session } = await bind(server.smppPort, systemId, password, "bind_receiver")
    let bindUid = ""
    await eventually(async () => {
      const page = await agent.get("/portal/api/smpp")
      bindUid = page.body.data.binds[0]?.uid ?? ""
      return bindUid !== ""
    })
    const closing = unbound(session)
    const unbind = await agent.del(`/portal/api/smpp-binds/${bindUid}`)
    expect(unbind.status).toBe(200)
    await closing

    const rotated = await agent.post(`/portal/api/smpp-accounts/${uid}/rotate-password`)
    expect(rotated.status).toBe(200)
    expect(rotated.body.data.password).not.toBe(password)
    expect((await bind(server.smppPort, systemId, password)).resp.command_status).toBe(0x0d)
    const fresh = await bind(server.smppPort, systemId, rotated.body.data.password, "bind_transmitter")
    expect(fresh.resp.command_status).toBe(0)
    const closingFresh = unbound(fresh.session)
    expect((await agent.post(`/portal/api/smpp-accounts/${uid}/disable`)).body.data.status).toBe("disabled")
    await closingFresh
    expect((await agent.post(`/portal/api/smpp-accounts/${uid}/enable`)).body.data.status).toBe("active")
    expect((await agent.del(`/portal/api/smpp-accounts/${uid}`)).status).toBe(200)
    expect((await agent.get("/portal/api/smpp")).body.data.accounts).toEqual([])

    const audit = await call(server, "GET", `/admin/v1/audit-log?target=smpp_account:${uid}`, { key: ADMIN })
    expect(audit.body.data.map((e: { action: string }) => e.action)).toEqual([
      "smpp_account.delete",
      "smpp_account.enable",
      "smpp_account.disable",
      "smpp_account.rotate_password",
      "smpp_account.create"
    ])
    expect(audit.body.data[0].actor_name).toBe(`portal:${email}`)
  })

  it("a member reads but changes nothing; another account's credentials and binds are 404", async () => {
    const accountId = (await server.run(setupAccount())).account.id
    const owner = await portalUser(accountId, "owner")
    const member = await portalUser(accountId, "member")
    const created = await owner.agent.post("/portal/api/smpp-accounts", { system_id: unique("m").slice(0, 15) })
    expect(created.status).toBe(201)
    const { uid, system_id, password } = created.body.data
    const seen = await member.agent.get("/portal/api/smpp")
    expect(seen.status).toBe(200)
    expect(seen.body.data.accounts.map((a: { uid: string }) => a.uid)).toEqual([uid])
    expect((await member.agent.post("/portal/api/smpp-accounts", { system_id: unique("n").slice(0, 15) })).status)
      .toBe(403)
    expect((await member.agent.post(`/portal/api/smpp-accounts/${uid}/disable`)).status).toBe(403)
    expect((await member.agent.del(`/portal/api/smpp-accounts/${uid}`)).status).toBe(403)
    const bad = await owner.agent.post("/portal/api/smpp-accounts", { system_id: "x".repeat(16) })
    expect(bad.status).toBe(422)
    expect(bad.body.errors.system_id).toBeDefined()

    const { session } = await bind(server.smppPort, system_id, password)
    let bindUid = ""
    await eventually(async () => {
      bindUid = (await owner.agent.get("/portal/api/smpp")).body.data.binds[0]?.uid ?? ""
      return bindUid !== ""
    })
    const stranger = await portalUser((await server.run(setupAccount())).account.id, "owner")
    expect((await stranger.agent.get("/portal/api/smpp")).body.data).toMatchObject({ accounts: [], binds: [] })
    expect((await stranger.agent.post(`/portal/api/smpp-accounts/${uid}/disable`)).status).toBe(404)
    expect((await stranger.agent.post(`/portal/api/smpp-accounts/${uid}/rotate-password`)).status).toBe(404)
    expect((await stranger.agent.del(`/portal/api/smpp-accounts/${uid}`)).status).toBe(404)
    expect((await stranger.agent.del(`/portal/api/smpp-binds/${bindUid}`)).status).toBe(404)
    expect((await member.agent.del(`/portal/api/smpp-binds/${bindUid}`)).status).toBe(403)
    const still = await owner.agent.get("/portal/api/smpp")
    expect(still.body.data.accounts[0].status).toBe("active")
    expect(still.body.data.binds.map((b: { uid: string }) => b.uid)).toEqual([bindUid])
    session.close()
  })
})

describe.skipIf(testDatabaseUrl === undefined)("live binds across processes (PostgreSQL)", () => {
  it("a bind held by one server is listed and unbound through another server's admin API", async () => {
    const scope = Effect.runSync(Scope.make())
    const url = await Effect.runPromise(Scope.extend(scratchDatabase, scope) as Effect.Effect<string, unknown>)
    const db = Database.postgres(url, { maxConnections: 4 })
    // a long heartbeat: the unbind must arrive by pg_notify, not by the next heartbeat
    const holder = await startSmppServer({ bindHeartbeatMs: 60_000 }, db)
    const other = await startSmppServer({ bindHeartbeatMs: 60_000 }, db)
    try {
      const acct = await holder.run(setupAccount())
      const c = await credentials(holder, acct.account.id)
      const { session } = await bind(holder.smppPort, c.systemId, c.password, "bind_transceiver")
      let uid = ""
      await eventually(async () => {
        const found = (await bindsOf(other)).find((b) => b.system_id === c.systemId)
        uid = String(found?.uid ?? "")
        return found !== undefined
      })
      const closing = unbound(session)
      const answer = await call(other, "DELETE", `/admin/v1/smpp-binds/${uid}`, { key: ADMIN })
      expect(answer.status).toBe(200)
      await closing
      await eventually(async () => !(await bindsOf(other)).some((b) => b.uid === uid))
    } finally {
      await other.close()
      await holder.close()
      await Effect.runPromise(Scope.close(scope, Exit.void))
    }
  })
})

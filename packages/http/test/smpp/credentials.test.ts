/**
 * SMPP credentials and binds (issue 28, docs/smpp.md): the admin API over HTTP, binds with node-smpp over a
 * socket — wrong password, disabled, rotated, address not allowed, max_binds, lockout, 3.3 and 3.4,
 * enquire_link, unbind, generic_nack for garbage, bind and inactivity timeouts.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Metric } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, setupAccount, unique } from "../harness.js"
import {
  ADMIN,
  bind,
  createCredentials,
  eventually,
  rawPdu,
  rawSocket,
  request,
  sleep,
  startSmppServer
} from "./support.js"

let server: Awaited<ReturnType<typeof startSmppServer>>
let accountUid: string

beforeAll(async () => {
  server = await startSmppServer({ bindTimeoutMs: 1_000, inactivityTimeoutMs: 4_000 })
  accountUid = (await server.run(setupAccount())).account.id
})
afterAll(() => server.close())

const create = async (extra: Record<string, unknown> = {}) => {
  const system_id = unique("s").slice(0, 15)
  const answer = await createCredentials(server, { account_uid: accountUid, system_id, ...extra })
  expect(answer.status).toBe(201)
  return { systemId: system_id, password: answer.body.data.password as string, uid: answer.body.data.uid as string }
}

/** The value of a series in this process's metrics (undefined: not exported). */
const series = (name: string, labels: Record<string, string> = {}) => {
  const pair = Metric.unsafeSnapshot().find((p) =>
    p.metricKey.name === name &&
    Object.entries(labels).every(([k, v]) => p.metricKey.tags.some((t) => t.key === k && t.value === v))
  )
  if (pair === undefined) return undefined
  const state: unknown = pair.metricState
  return typeof state === "object" && state !== null && "count" in state
    ? Number(state.count)
    : typeof state === "object" && state !== null && "value" in state
    ? Number(state.value)
    : undefined
}

describe("metrics", () => {
  it("exports every SMPP series at zero from the start, then counts", async () => {
    // nothing has happened on this server yet: every known series reads 0
    for (
      const outcome of [
        "accepted",
        "SENDER_ID_NOT_APPROVED",
        "INSUFFICIENT_BALANCE",
        "ESME_RTHROTTLED",
        "ESME_RMSGQFUL"
      ]
    ) {
      expect(series("tuma_smpp_submits_total", { outcome })).toBe(0)
    }
    for (const reason of ["wrong_password", "locked", "max_binds", "address_not_allowed"]) {
      expect(series("tuma_smpp_bind_failures_total", { reason })).toBe(0)
    }
    expect(series("tuma_smpp_throttled_total")).toBe(0)
    expect(series("tuma_smpp_receipts_delivered_total")).toBe(0)
    expect(series("tuma_smpp_binds_up")).toBe(0)
    const c = await create()
    const wrong = await bind(server.smppPort, c.systemId, "nope1234")
    wrong.session.close()
    expect(series("tuma_smpp_bind_failures_total", { reason: "wrong_password" })).toBe(1)
    const ok = await bind(server.smppPort, c.systemId, c.password)
    expect(series("tuma_smpp_binds_up")).toBe(1)
    ok.session.close()
    await eventually(() => series("tuma_smpp_binds_up") === 0)
  })
})

describe("admin API /admin/v1/smpp-accounts", () => {
  it("creates credentials, shows the 8-character password once and stores only its hash", async () => {
    const c = await create({ mode: "sandbox", throughput: { rate: 20, burst: 40 }, max_binds: 3 })
    expect(c.password).toMatch(/^[A-Za-z0-9]{8}$/)
    const got = await call(server, "GET", `/admin/v1/smpp-accounts/${c.uid}`, { key: ADMIN })
    expect(got.status).toBe(200)
    expect(got.body.data).toMatchObject({
      system_id: c.systemId,
      mode: "sandbox",
      throughput: { rate: 20, burst: 40 },
      max_binds: 3,
      status: "active"
    })
    expect(got.body.data.password).toBeUndefined()
    const list = await call(server, "GET", `/admin/v1/smpp-accounts?account_uid=${accountUid}`, { key: ADMIN })
    expect(list.body.data.map((a: { uid: string }) => a.uid)).toContain(c.uid)
    expect(list.text).not.toContain(c.password)
    const stored = await server.run(Effect.flatMap(
      SqlClient.SqlClient,
      (sql) => sql<{ password_hash: string }>`SELECT password_hash FROM smpp_accounts WHERE id = ${c.uid}`
    ))
    expect(stored[0]!.password_hash).toMatch(/^scrypt\$/)
    expect(stored[0]!.password_hash).not.toContain(c.password)
  })

  it("refuses a system_id over 15 characters, a taken one, a bad CIDR, an unknown account; needs the admin token", async () => {
    const long = await createCredentials(server, { account_uid: accountUid, system_id: "a".repeat(16) })
    expect(long.status).toBe(422)
    expect(long.body.errors.system_id).toBeDefined()
    const c = await create()
    const taken = await createCredentials(server, { account_uid: accountUid, system_id: c.systemId })
    expect(taken.status).toBe(409)
    const cidr = await createCredentials(server, {
      account_uid: accountUid,
      system_id: unique("c").slice(0, 15),
      allowed_ips: ["10.0.0.0/33"]
    })
    expect(cidr.status).toBe(422)
    expect(cidr.body.errors["allowed_ips.0"]).toBeDefined()
    const burst = await createCredentials(server, {
      account_uid: accountUid,
      system_id: unique("b").slice(0, 15),
      throughput: { rate: 10, burst: 5 }
    })
    expect(burst.status).toBe(422)
    const nobody = await createCredentials(server, {
      account_uid: "00000000-0000-7000-8000-000000000000",
      system_id: unique("n").slice(0, 15)
    })
    expect(nobody.status).toBe(404)
    const anonymous = await call(server, "POST", "/admin/v1/smpp-accounts", {
      body: { account_uid: accountUid, system_id: unique("x").slice(0, 15) }
    })
    expect(anonymous.status).toBe(401)
  })
  it("records create, disable, enable, rotate and delete in the audit log, never the password", async () => {
    const c = await create()
    for (const verb of ["disable", "enable", "rotate-password"]) {
      expect((await call(server, "POST", `/admin/v1/smpp-accounts/${c.uid}/${verb}`, { key: ADMIN })).status).toBe(200)
    }
    const rotated = await call(server, "POST", `/admin/v1/smpp-accounts/${c.uid}/rotate-password`, { key: ADMIN })
    expect((await call(server, "DELETE", `/admin/v1/smpp-accounts/${c.uid}`, { key: ADMIN })).status).toBe(200)
    // refused changes record nothing
    expect((await call(server, "DELETE", `/admin/v1/smpp-accounts/${c.uid}`, { key: ADMIN })).status).toBe(404)
    const log = await call(server, "GET", `/admin/v1/audit-log?target=smpp_account:${c.uid}`, { key: ADMIN })
    expect(log.status).toBe(200)
    const entries = [...log.body.data].reverse() as Array<
      { action: string; actor_kind: string; before: unknown; after: unknown }
    >
    expect(entries.map((e) => e.action)).toEqual([
      "smpp_account.create",
      "smpp_account.disable",
      "smpp_account.enable",
      "smpp_account.rotate_password",
      "smpp_account.rotate_password",
      "smpp_account.delete"
    ])
    expect(entries.every((e) => e.actor_kind === "admin-token")).toBe(true)
    expect(entries[1]!.before).toMatchObject({ status: "active" })
    expect(entries[1]!.after).toMatchObject({ status: "disabled" })
    expect(entries[0]!.after).toMatchObject({ system_id: c.systemId, password: "***" })
    expect(entries[5]!.before).toMatchObject({ system_id: c.systemId })
    expect(log.text).not.toContain(c.password)
    expect(log.text).not.toContain(rotated.body.data.password)
  })
  it("changes throughput, max_binds and allowed_ips (PATCH): checked as at creation, audited; binds made afterwards get them", async () => {
    const c = await create({ throughput: { rate: 50, burst: 80 }, max_binds: 3 })
    const path = `/admin/v1/smpp-accounts/${c.uid}`
    const changed = await call(server, "PATCH", path, {
      key: ADMIN,
      body: { throughput: { rate: 10 }, max_binds: 1, allowed_ips: ["10.9.0.0/16"] }
    })
    expect(changed.status).toBe(200)
    expect(changed.body.data).toMatchObject({
      throughput: { rate: 10, burst: 10 },
      max_binds: 1,
      allowed_ips: ["10.9.0.0/16"]
    })
    // refused: a burst below the rate, a bad block, unknown credentials; nothing changes
    const bad = await call(server, "PATCH", path, { key: ADMIN, body: { throughput: { rate: 20, burst: 5 } } })
    expect(bad.status).toBe(422)
    expect((await call(server, "PATCH", path, { key: ADMIN, body: { allowed_ips: ["nope"] } })).status).toBe(422)
    expect(
      (await call(server, "PATCH", `/admin/v1/smpp-accounts/${crypto.randomUUID()}`, { key: ADMIN, body: {} }))
        .status
    ).toBe(404)
    expect((await call(server, "GET", path, { key: ADMIN })).body.data).toMatchObject({
      throughput: { rate: 10, burst: 10 },
      max_binds: 1
    })
    // a bind from 127.0.0.1 is now outside allowed_ips
    const outside = await bind(server.smppPort, c.systemId, c.password, "bind_transmitter")
    expect(outside.resp.command_status).toBe(0x0d)
    outside.session.close()
    const open = await call(server, "PATCH", path, { key: ADMIN, body: { allowed_ips: [] } })
    expect(open.status).toBe(200)
    const first = await bind(server.smppPort, c.systemId, c.password, "bind_transmitter")
    expect(first.resp.command_status).toBe(0)
    const second = await bind(server.smppPort, c.systemId, c.password, "bind_transmitter")
    expect(second.resp.command_status).toBe(0x0d)
    first.session.close()
    second.session.close()
    const log = await call(server, "GET", `/admin/v1/audit-log?target=smpp_account:${c.uid}`, { key: ADMIN })
    const updates = (log.body.data as Array<{ action: string; before: unknown; after: unknown }>)
      .filter((e) => e.action === "smpp_account.update")
    expect(updates).toHaveLength(2)
    expect(updates.at(-1)!.before).toMatchObject({ max_binds: 3 })
  })
})

describe("binds", () => {
  it("binds as transmitter, receiver and transceiver (3.4 and 3.3); wrong credentials get ESME_RBINDFAIL", async () => {
    const c = await create({ max_binds: 5 })
    for (const kind of ["bind_transmitter", "bind_receiver", "bind_transceiver"] as const) {
      const { resp, session } = await bind(server.smppPort, c.systemId, c.password, kind)
      expect(resp.command_status).toBe(0)
      expect(resp.system_id).toBe("Tuma")
      session.close()
    }
    const v33 = await bind(server.smppPort, c.systemId, c.password, "bind_transceiver", 0x33)
    expect(v33.resp.command_status).toBe(0)
    const link = await request(v33.session, "enquire_link")
    expect(link.command).toBe("enquire_link_resp")
    expect(link.command_status).toBe(0)
    const unbound = await request(v33.session, "unbind")
    expect(unbound.command).toBe("unbind_resp")
    const wrong = await bind(server.smppPort, c.systemId, "nope1234")
    expect(wrong.resp.command_status).toBe(0x0d)
    const unknown = await bind(server.smppPort, "nobody", "nope1234")
    expect(unknown.resp.command_status).toBe(0x0d)
    wrong.session.close()
    unknown.session.close()
  })

  it("refuses past max_binds, a disabled account, an address not allowed; rotation replaces the password", async () => {
    const c = await create({ max_binds: 2 })
    const a = await bind(server.smppPort, c.systemId, c.password)
    const b = await bind(server.smppPort, c.systemId, c.password)
    const third = await bind(server.smppPort, c.systemId, c.password)
    expect([a.resp.command_status, b.resp.command_status, third.resp.command_status]).toEqual([0, 0, 0x0d])
    // disabling closes the binds up and refuses new ones
    let closed = false
    a.session.on("close", () => {
      closed = true
    })
    const disabled = await call(server, "POST", `/admin/v1/smpp-accounts/${c.uid}/disable`, { key: ADMIN })
    expect(disabled.body.data.status).toBe("disabled")
    await eventually(() => closed)
    expect((await bind(server.smppPort, c.systemId, c.password)).resp.command_status).toBe(0x0d)
    await call(server, "POST", `/admin/v1/smpp-accounts/${c.uid}/enable`, { key: ADMIN })
    const rotated = await call(server, "POST", `/admin/v1/smpp-accounts/${c.uid}/rotate-password`, { key: ADMIN })
    const fresh = rotated.body.data.password as string
    expect(fresh).toMatch(/^[A-Za-z0-9]{8}$/)
    expect((await bind(server.smppPort, c.systemId, c.password)).resp.command_status).toBe(0x0d)
    const ok = await bind(server.smppPort, c.systemId, fresh)
    expect(ok.resp.command_status).toBe(0)
    ok.session.close()
    const fenced = await create({ allowed_ips: ["10.0.0.0/8"] })
    expect((await bind(server.smppPort, fenced.systemId, fenced.password)).resp.command_status).toBe(0x0d)
    const open = await create({ allowed_ips: ["127.0.0.0/8"] })
    expect((await bind(server.smppPort, open.systemId, open.password)).resp.command_status).toBe(0)
    const deleted = await call(server, "DELETE", `/admin/v1/smpp-accounts/${open.uid}`, { key: ADMIN })
    expect(deleted.status).toBe(200)
    expect((await call(server, "GET", `/admin/v1/smpp-accounts/${open.uid}`, { key: ADMIN })).status).toBe(404)
    expect((await bind(server.smppPort, open.systemId, open.password)).resp.command_status).toBe(0x0d)
  })

  it("locks a system_id after 5 failed binds: the right password is refused too", async () => {
    const c = await create()
    for (let i = 0; i < 5; i++) {
      const { resp, session } = await bind(server.smppPort, c.systemId, `wrong${i}xx`)
      expect(resp.command_status).toBe(0x0d)
      session.close()
    }
    expect((await bind(server.smppPort, c.systemId, c.password)).resp.command_status).toBe(0x0d)
  })
})

describe("the session survives garbage", () => {
  it("answers generic_nack to an unknown command and a malformed body, and keeps the connection", async () => {
    const raw = await rawSocket(server.smppPort)
    raw.socket.write(rawPdu(0x00000777, 7))
    raw.socket.write(rawPdu(0x00000009, 8, Buffer.from("no-nul-terminator-at-all-here")))
    raw.socket.write(rawPdu(0x00000015, 9))
    await eventually(() => raw.received().length >= 48)
    const got = raw.received()
    const answers = [0, 16, 32].map((at) => ({
      id: got.readUInt32BE(at + 4),
      status: got.readUInt32BE(at + 8),
      seq: got.readUInt32BE(at + 12)
    })).sort((a, b) => a.seq - b.seq)
    expect(answers).toEqual([
      { id: 0x80000000, status: 0x03, seq: 7 }, // generic_nack ESME_RINVCMDID
      { id: 0x80000000, status: 0x02, seq: 8 }, // generic_nack ESME_RINVCMDLEN
      { id: 0x80000015, status: 0, seq: 9 } // enquire_link_resp: still served
    ])
    raw.socket.destroy()
  })

  it("closes a connection whose length cannot be framed; the server keeps serving", async () => {
    const raw = await rawSocket(server.smppPort)
    raw.socket.write(Buffer.from([0xff, 0xff, 0xff, 0xff, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]))
    await eventually(() => raw.closed())
    expect(raw.received().readUInt32BE(4)).toBe(0x80000000)
    const c = await create()
    const after = await bind(server.smppPort, c.systemId, c.password)
    expect(after.resp.command_status).toBe(0)
    after.session.close()
  })

  it("closes a connection that does not bind in time, and a bound one that stays silent", async () => {
    const raw = await rawSocket(server.smppPort)
    await eventually(() => raw.closed(), 2_000)
    const c = await create()
    const { session } = await bind(server.smppPort, c.systemId, c.password)
    const unbind = new Promise<string>((resolve) => session.on("pdu", (p: { command: string }) => resolve(p.command)))
    const start = Date.now()
    expect(await unbind).toBe("unbind")
    // silent since the bind response: unbound after the 4 s inactivity timeout (not before ~half of it)
    expect(Date.now() - start).toBeGreaterThan(1_000)
    await sleep(50)
  })
})

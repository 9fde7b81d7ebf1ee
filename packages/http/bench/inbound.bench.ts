/**
 * `pnpm bench:inbound` — two-way SMS throughput: BENCH_MO (10,000) single-part MO deliver_sm sent by
 * the SMSC simulator over ONE carrier bind with a window of 100 (at most 100 unanswered), to a Tuma
 * server on PostgreSQL (scratch database) running the delivery workers (the writer stores each MO
 * before its deliver_sm_resp) and the webhook workers, which post every `sms.received` to a receiver
 * on loopback.
 *
 * Prints MO/s stored (deliver_sm sent → every deliver_sm_resp back, each one after its commit), MO/s
 * posted (→ every webhook received), and p50/p99 from a deliver_sm to its webhook, with the load
 * average before and after (the machine is shared) and the CPU seconds this process used (server,
 * workers, simulator and receiver share it), so a run on a busy machine can be read.
 *
 * Env: BENCH_MO (10000), BENCH_WINDOW (100), BENCH_DATABASE_URL (admin URL of a PostgreSQL server;
 * default TUMA_TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres), BENCH_SPLIT=1: the
 * webhook workers in a second process (`inbound-webhooks.ts`, as `tuma worker` runs them), this one
 * keeping the carrier bind and the writer; the CPU of both is printed.
 */
import * as Reactivity from "@effect/experimental/Reactivity"
import { PgClient } from "@effect/sql-pg"
import { Operator } from "@tuma/core"
import { makeSmscSimulator } from "@tuma/providers/smsc/SmscSimulator"
import * as Database from "@tuma/store-sql/Database"
import { Effect, Exit, Layer, Redacted, Scope } from "effect"
import { spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { readFileSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { loadavg } from "node:os"
import * as DeliveryWorkers from "../src/runtime/DeliveryWorkers.js"
import * as WebhookWorkers from "../src/runtime/WebhookWorkers.js"
import { setupAccount, startServer, unique } from "../test/harness.js"

const N = Number(process.env.BENCH_MO ?? 10_000)
const SPLIT = process.env.BENCH_SPLIT === "1"
const WINDOW = Number(process.env.BENCH_WINDOW ?? 100)
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? process.env.TUMA_TEST_DATABASE_URL ??
  "postgres://postgres@127.0.0.1:5432/postgres"
process.env.TUMA_WEBHOOK_ALLOW = "127.0.0.1"

/** A scratch PostgreSQL database on ADMIN_URL, dropped when the scope closes. */
const scratchDatabase = Effect.gen(function*() {
  const name = `tuma_inbound_bench_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`
  const admin = yield* PgClient.make({ url: Redacted.make(ADMIN_URL), maxConnections: 1 }).pipe(
    Effect.provide(Reactivity.layer)
  )
  yield* Effect.acquireRelease(
    admin.unsafe(`CREATE DATABASE ${name}`),
    () => admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).pipe(Effect.orDie)
  )
  const url = new URL(ADMIN_URL)
  url.pathname = `/${name}`
  return url.toString()
})
const NUMBER = "+255700555000"

/** CPU seconds used so far by a process of this machine (/proc), 0 when it is gone. */
const cpuOf = (pid: number): number => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return 0
  }
}

/** The webhook workers in a child process (BENCH_SPLIT=1), resolved once it says "ready". */
const startWebhookProcess = (url: string) =>
  new Promise<{ readonly pid: number; readonly stop: () => void }>((resolve, reject) => {
    const child = spawn(process.execPath, [
      ...process.execArgv,
      new URL("./inbound-webhooks.ts", import.meta.url).pathname
    ], {
      env: { ...process.env, BENCH_CHILD_DATABASE_URL: url },
      stdio: ["ignore", "pipe", "inherit"]
    })
    child.on("error", reject)
    child.stdout.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("ready")) resolve({ pid: child.pid!, stop: () => child.kill("SIGTERM") })
    })
  })

/** CPU seconds used so far by the PostgreSQL backends of the scratch database (same machine: /proc). */
const backendsCpu = (url: string) =>
  Effect.gen(function*() {
    const db = new URL(url).pathname.slice(1)
    const admin = yield* PgClient.make({ url: Redacted.make(ADMIN_URL), maxConnections: 1 })
    const rows = yield* admin<{ pid: number }>`SELECT pid FROM pg_stat_activity WHERE datname = ${db}`
    // a backend that ended (or another machine) counts 0
    return rows.reduce((sum, { pid }) => sum + cpuOf(pid), 0)
  }).pipe(Effect.scoped, Effect.provide(Reactivity.layer), Effect.orElseSucceed(() => 0))

const load = () => loadavg().map((l) => l.toFixed(2)).join(" ")
const pct = (xs: Array<number>, p: number) =>
  xs.sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!

const main = async () => {
  const scope = Effect.runSync(Scope.make())
  const url = await Effect.runPromise(Scope.extend(scratchDatabase, scope) as Effect.Effect<string>)
  const sentAt = new Float64Array(N)
  const postedAt = new Float64Array(N)
  let posted = 0
  let allPosted: () => void = () => {}
  const done = new Promise<void>((r) => (allPosted = r))
  const receiver = createServer((req, res) => {
    let body = ""
    req.on("data", (c) => (body += c))
    req.on("end", () => {
      const i = Number(/"text":"mo (\d+)"/.exec(body)?.[1])
      if (Number.isInteger(i) && postedAt[i] === 0) {
        postedAt[i] = performance.now()
        if (++posted === N) allPosted()
      }
      res.writeHead(200).end()
    })
  })
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()))
  const server = await startServer({ adminToken: "bench" }, Database.postgres(url, { maxConnections: 10 }), scope)
  const sim = await Effect.runPromise(Scope.extend(makeSmscSimulator({ receiptDelayMs: 20 }), scope))
  const acct = await server.run(setupAccount({ balances: { TZ: 10 }, providerCredit: null }))
  await server.run(Effect.flatMap(Operator, (op) =>
    op.addProvider({
      name: unique("smsc"),
      kind: "smpp",
      config: { host: "127.0.0.1", port: sim.port, systemId: "tuma", password: "secret" },
      routes: [{ country: "TZ", credit: 1000 }]
    })))
  const admin = (path: string, body: unknown) =>
    fetch(`${server.url}/admin/v1${path}`, {
      method: "POST",
      headers: { authorization: "Bearer bench", "content-type": "application/json" },
      body: JSON.stringify(body)
    }).then((r) => r.json())
  await admin("/inbound-numbers", { account_uid: acct.account.id, number: NUMBER })
  await admin("/webhooks", {
    api_key_uid: acct.liveId,
    url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
    events: ["sms.received"]
  })
  const webhooks = SPLIT ? await startWebhookProcess(url) : undefined
  await Effect.runPromise(Layer.buildWithScope(
    Layer.mergeAll(
      DeliveryWorkers.layer({}),
      SPLIT ? Layer.empty : WebhookWorkers.layer({}, { TUMA_WEBHOOK_ALLOW: "127.0.0.1" })
    ).pipe(Layer.provide(Layer.succeedContext(server.context))),
    scope
  ))
  await sim.waitUntil(() => sim.sessionCount > 0, 30_000)
  const before = load()
  // what the processes burn while nothing arrives (polling loops), to read the CPU figures below
  const idle0 = { self: process.cpuUsage(), hooks: webhooks === undefined ? 0 : cpuOf(webhooks.pid) }
  await new Promise((r) => setTimeout(r, 3_000))
  const idleSelf = process.cpuUsage(idle0.self)
  const idle = {
    self: (idleSelf.user + idleSelf.system) / 1e6 / 3,
    hooks: webhooks === undefined ? 0 : (cpuOf(webhooks.pid) - idle0.hooks) / 3
  }

  const t0 = performance.now()
  const cpu0 = process.cpuUsage()
  const pg0 = await Effect.runPromise(backendsCpu(url))
  const hooks0 = webhooks === undefined ? 0 : cpuOf(webhooks.pid)
  let next = 0
  let answered = 0
  let refused = 0
  await new Promise<void>((resolve) => {
    const pump = () => {
      while (next < N && next - answered < WINDOW) {
        const i = next++
        sentAt[i] = performance.now()
        sim.sendMoPdu({
          source_addr: `2557${String(10_000_000 + i).padStart(8, "0")}`,
          destination_addr: NUMBER.slice(1),
          short_message: `mo ${i}`
        }).then((status) => {
          if (status !== 0) refused++
          if (++answered === N) resolve()
          else pump()
        })
      }
    }
    pump()
  })
  const tStored = performance.now()
  await Promise.race([done, new Promise((r) => setTimeout(r, 120_000))])
  const tPosted = performance.now()
  const cpu = process.cpuUsage(cpu0)
  const cpuSeconds = (cpu.user + cpu.system) / 1e6
  const pgSeconds = (await Effect.runPromise(backendsCpu(url))) - pg0
  const hookSeconds = webhooks === undefined ? 0 : cpuOf(webhooks.pid) - hooks0
  const latencies: Array<number> = []
  for (let i = 0; i < N; i++) if (postedAt[i]! > 0) latencies.push(postedAt[i]! - sentAt[i]!)

  console.log(
    `inbound bench: ${N} MO over one bind, window ${WINDOW}, PostgreSQL, webhook on loopback` +
      (SPLIT ? "; webhook workers in a second process" : "")
  )
  console.log(
    `  stored: ${Math.round(N / ((tStored - t0) / 1000))} MO/s (${
      ((tStored - t0) / 1000).toFixed(2)
    } s; ${refused} answered with an error)`
  )
  console.log(
    `  posted: ${Math.round(posted / ((tPosted - t0) / 1000))} MO/s (${posted}/${N} in ${
      ((tPosted - t0) / 1000).toFixed(2)
    } s)`
  )
  console.log(
    `  deliver_sm -> webhook: p50 ${pct(latencies, 0.5).toFixed(0)} ms, p99 ${pct(latencies, 0.99).toFixed(0)} ms`
  )
  console.log(
    `  this process (server, ${SPLIT ? "carrier bind and writer" : "workers"}, SMSC, receiver): ` +
      `${cpuSeconds.toFixed(1)} CPU s = ${Math.round(N / cpuSeconds)} MO per CPU second`
  )
  if (SPLIT) console.log(`  the webhook workers' process: ${hookSeconds.toFixed(1)} CPU s`)
  console.log(
    `  idle (nothing arriving, 3 s before): this process ${idle.self.toFixed(3)} CPU s per second` +
      (SPLIT ? `, the webhook workers' ${idle.hooks.toFixed(3)}` : "")
  )
  const all = cpuSeconds + pgSeconds + hookSeconds
  console.log(
    `  PostgreSQL's backends of the database: ${pgSeconds.toFixed(1)} CPU s; everything: ${all.toFixed(1)} CPU s = ` +
      `${Math.round(N / all)} MO per CPU second`
  )
  console.log(`  load average before: ${before}; after: ${load()}`)
  receiver.close()
  webhooks?.stop()
  await Effect.runPromise(Scope.close(scope, Exit.void))
  process.exit(0)
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})

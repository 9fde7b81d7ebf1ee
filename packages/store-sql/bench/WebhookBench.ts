/**
 * `pnpm bench:webhooks` — delivery webhooks throughput and latency.
 *
 * For each database (embedded PGlite always; PostgreSQL too when `TUMA_BENCH_DATABASE_URL` or
 * `TUMA_TEST_DATABASE_URL` is set, in a scratch database dropped afterwards):
 *
 * - burst: 10,000 messages move to `delivered` (committed in batches of 500 as fast as the database
 *   takes them); the webhook workers deliver every event to a local receiver. Prints deliveries/s
 *   (first final state → last receipt) and the latency from each message's final state to its
 *   receipt (p50, p99). Median of 3 rounds.
 * - paced: 10,000 messages at 1,000 final states/s (the target rate): latency p50/p99 when keeping up.
 * - baseline, same run: the bare HTTP sender posting 10,000 signed bodies to the same receiver with
 *   the same concurrency (no database) — the ceiling the queue is compared against.
 *
 * The receiver runs in a child process (node:http, keep-alive), verifying every signature.
 */
import { SqlClient } from "@effect/sql"
import { Ids, Operator } from "@tuma/core"
import type { WebhookSettings } from "@tuma/core/webhooks/index"
import {
  layerWebhookAdmin,
  layerWebhookWorkers,
  Mailer,
  SystemSms,
  WebhookAdmin,
  WebhookConfig
} from "@tuma/core/webhooks/index"
import { buildWebhookBody } from "@tuma/domain"
import {
  layerHttpWebhookSender,
  layerWebhookDestinationPolicy,
  makeHttpWebhookSenderUnsafe
} from "@tuma/providers/webhook/index"
import { Effect, Layer } from "effect"
import { fork } from "node:child_process"
import { monitorEventLoopDelay } from "node:perf_hooks"
import { fileURLToPath } from "node:url"
import * as Database from "../src/Database.js"
import { MARKET_IDS } from "../src/migrations/0002_markets.js"
import * as SqlOperatorStore from "../src/SqlOperatorStore.js"
import * as SqlWebhookStore from "../src/SqlWebhookStore.js"
import { scratchPostgres } from "./scratch.js"

const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const PACED_RATE = 1_000

const median = (xs: ReadonlyArray<number>) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}
const percentile = (xs: ReadonlyArray<number>, p: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]
}
const fmt = (n: number, digits = 0) =>
  n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits })

/** The receiver, in a child process (WebhookBenchReceiver.ts): receipt time per message id. */
const startReceiver = async () => {
  const received = new Map<string, number>()
  let bad = 0
  let waiter: { n: number; resolve: () => void } | undefined
  const child = fork(fileURLToPath(new URL("./WebhookBenchReceiver.ts", import.meta.url)), [], {
    execArgv: ["--conditions=@tuma/source", "--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"]
  })
  const port = await new Promise<number>((resolve, reject) => {
    child.once("error", reject)
    child.on("message", (m: any) => {
      if (m.type === "listening") resolve(m.port)
      if (m.type === "received") {
        bad = m.bad
        for (const [id, at] of m.items as Array<[string, number]>) if (!received.has(id)) received.set(id, at)
        if (waiter && received.size >= waiter.n) waiter.resolve()
      }
    })
  })
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    bad: () => bad,
    setSecret: (secret: string) =>
      new Promise<void>((resolve) => {
        const ack = (m: any) => {
          if (m.type !== "secret-set") return
          child.off("message", ack)
          resolve()
        }
        child.on("message", ack)
        child.send({ type: "secret", secret })
      }),
    reset: () => received.clear(),
    waitFor: (n: number, timeoutMs: number) =>
      new Promise<void>((resolve, reject) => {
        if (received.size >= n) return resolve()
        const t = setTimeout(() => reject(new Error(`only ${received.size}/${n} webhooks arrived`)), timeoutMs)
        waiter = { n, resolve: () => (clearTimeout(t), resolve()) }
      }),
    close: () =>
      new Promise<void>((r) => {
        child.once("exit", () => r())
        child.send({ type: "stop" })
      })
  }
}

type Receiver = Awaited<ReturnType<typeof startReceiver>>

const settings: Partial<WebhookSettings> = process.env.BENCH_SETTINGS ? JSON.parse(process.env.BENCH_SETTINGS) : {} // default: what users get

const baseline = (rx: Receiver) =>
  Effect.promise(async () => {
    const secret = "whsec_baseline"
    await rx.setSecret(secret)
    rx.reset()
    const sender = makeHttpWebhookSenderUnsafe({ allow: ["127.0.0.1"] })
    const now = Date.now()
    const bodies = Array.from({ length: EVENTS }, (_, i) =>
      buildWebhookBody({
        messageId: `baseline-${i}`,
        to: "+255700000000",
        status: "delivered",
        senderId: "TUMA",
        finalAt: now,
        now
      }).body)
    const t0 = performance.now()
    const cpu0 = process.cpuUsage()
    let next = 0
    const worker = async () => {
      while (next < bodies.length) {
        const i = next++
        await Effect.runPromise(sender.send({
          url: rx.url,
          body: bodies[i],
          secret,
          event: "sms.delivered",
          deliveryId: `b-${i}`,
          timeoutMs: 10_000
        }))
      }
    }
    await Promise.all(Array.from({ length: 256 }, worker))
    const seconds = (performance.now() - t0) / 1000
    const cpu = process.cpuUsage(cpu0)
    sender.close()
    return { perSecond: EVENTS / seconds, cpuUsPerDelivery: (cpu.user + cpu.system) / EVENTS }
  })

const noMail = Layer.succeed(Mailer, { send: () => Effect.succeed("sent" as const) })
const noSms = Layer.succeed(SystemSms, { send: () => Effect.succeed({ messageId: "none" }) })

/** One database: set up an account, key and endpoint, run the rounds. */
const runOn = (label: string, db: Layer.Layer<SqlClient.SqlClient, unknown>, rx: Receiver) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const operator = yield* Operator
    const admin = yield* WebhookAdmin
    const account = yield* operator.createAccount({ name: "Bench", email: `bench-${Date.now()}@tuma.test` })
    const key = yield* operator.issueApiKey({ accountId: account.id })
    const { endpoint, secret } = yield* admin.createEndpoint({ apiKeyId: key.id, url: rx.url })

    /** Waits for `n` receipts; fails fast (with the attempts' errors) if the endpoint got disabled. */
    const arrival = (n: number) =>
      Effect.raceFirst(
        Effect.promise(() => rx.waitFor(n, 600_000)),
        Effect.gen(function*() {
          while ((yield* admin.getEndpoint(endpoint.id)).enabled) yield* Effect.sleep(500)
          const errors = yield* sql<{ error: string; n: string }>`
            SELECT coalesce(error, 'HTTP ' || response_status) AS error, count(*) AS n FROM webhook_attempts
            WHERE outcome = 'failure' GROUP BY 1 ORDER BY 2 DESC LIMIT 5`
          return yield* Effect.dieMessage(
            `the endpoint was disabled after 10 consecutive failures (${rx.received.size}/${n} arrived); ` +
              `failed attempts: ${errors.map((e) => `${e.n} × ${e.error}`).join("; ")}`
          )
        })
      )
    yield* Effect.promise(() => rx.setSecret(secret))

    const insertMessages = (n: number) =>
      Effect.gen(function*() {
        const ids: Array<string> = []
        const now = new Date()
        for (let off = 0; off < n; off += 1_000) {
          const rows = Array.from({ length: Math.min(1_000, n - off) }, (_, i) => {
            const id = crypto.randomUUID()
            ids.push(id)
            return {
              id,
              account_id: account.id,
              api_key_id: key.id,
              market_id: MARKET_IDS.TZ,
              country: "TZ",
              recipient: `+25571${String(off + i).padStart(7, "0")}`,
              sender_id: "TUMA",
              text: "bench",
              encoding: "GSM-7",
              parts: 1,
              units: 1,
              channel: "api",
              status: "sent",
              created_at: now,
              queued_at: now,
              sent_at: now,
              updated_at: now
            }
          })
          yield* sql`INSERT INTO messages ${sql.insert(rows)}`
        }
        return ids
      })

    const finalizeBatch = (ids: ReadonlyArray<string>, finalAt: Map<string, number>) =>
      Effect.gen(function*() {
        const at = new Date()
        yield* sql`UPDATE messages SET status = 'delivered', delivered_at = ${at}, updated_at = ${at}
                   WHERE id = ANY(${ids}::uuid[])`
        const committed = performance.timeOrigin + performance.now()
        for (const id of ids) finalAt.set(id, committed)
      })

    const measure = (ids: ReadonlyArray<string>, finalAt: Map<string, number>, cpu: NodeJS.CpuUsage) => {
      const latencies = ids.map((id) => rx.received.get(id)! - finalAt.get(id)!)
      const first = Math.min(...finalAt.values())
      const last = Math.max(...ids.map((id) => rx.received.get(id)!))
      return {
        perSecond: ids.length / ((last - first) / 1000),
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        cpuUsPerDelivery: (cpu.user + cpu.system) / ids.length
      }
    }

    const burst = Effect.gen(function*() {
      const ids = yield* insertMessages(EVENTS)
      rx.reset()
      const finalAt = new Map<string, number>()
      const cpu0 = process.cpuUsage()
      for (let i = 0; i < ids.length; i += 500) yield* finalizeBatch(ids.slice(i, i + 500), finalAt)
      if (process.env.BENCH_DEBUG) {
        const h = monitorEventLoopDelay({ resolution: 5 })
        h.enable()
        yield* Effect.forkScoped(Effect.forever(Effect.gen(function*() {
          yield* Effect.sleep(1000)
          const rows = yield* sql`SELECT status, count(*) FROM webhook_deliveries GROUP BY status`
          const at =
            yield* sql`SELECT outcome, error, count(*), avg(latency_ms)::int AS ms FROM webhook_attempts GROUP BY 1, 2`
          console.log(
            rx.received.size,
            JSON.stringify(rows),
            JSON.stringify(at),
            "loop lag p99 ms",
            (h.percentile(99) / 1e6).toFixed(1),
            "max",
            (h.max / 1e6).toFixed(1)
          )
          h.reset()
        })))
      }
      yield* arrival(EVENTS)
      return measure(ids, finalAt, process.cpuUsage(cpu0))
    })

    const paced = Effect.gen(function*() {
      const ids = yield* insertMessages(EVENTS)
      rx.reset()
      const finalAt = new Map<string, number>()
      const perTick = PACED_RATE / 20
      const start = Date.now()
      const cpu0 = process.cpuUsage()
      for (let i = 0, tick = 0; i < ids.length; i += perTick, tick++) {
        const wait = start + tick * 50 - Date.now()
        if (wait > 0) yield* Effect.sleep(wait)
        yield* finalizeBatch(ids.slice(i, i + perTick), finalAt)
      }
      yield* arrival(EVENTS)
      return measure(ids, finalAt, process.cpuUsage(cpu0))
    })

    yield* burst // warm-up (JIT, pools, caches)
    const rounds = []
    for (let r = 0; r < ROUNDS; r++) rounds.push(yield* burst)
    const p = yield* paced
    return {
      label,
      perSecond: median(rounds.map((r) => r.perSecond)),
      p50: median(rounds.map((r) => r.p50)),
      p99: median(rounds.map((r) => r.p99)),
      cpuUsPerDelivery: median(rounds.map((r) => r.cpuUsPerDelivery)),
      paced: p
    }
  }).pipe(
    Effect.provide(
      Layer.mergeAll(layerWebhookWorkers, layerWebhookAdmin, Operator.layer).pipe(
        Layer.provideMerge(
          Layer.mergeAll(
            SqlWebhookStore.layer,
            SqlOperatorStore.layer,
            layerHttpWebhookSender({ allow: ["127.0.0.1"] }),
            layerWebhookDestinationPolicy(["127.0.0.1"]),
            WebhookConfig.layer(settings),
            Ids.layer,
            noMail,
            noSms
          )
        ),
        Layer.provideMerge(Layer.orDie(db))
      )
    ),
    Effect.scoped
  )

const main = Effect.gen(function*() {
  const rx = yield* Effect.acquireRelease(Effect.promise(startReceiver), (r) => Effect.promise(r.close))
  console.log(`webhook bench: ${fmt(EVENTS)} events per round, ${ROUNDS} rounds (median), receiver in a child process`)
  yield* baseline(rx) // warm-up (JIT, sockets), as the queue rounds get one
  const base = yield* baseline(rx)
  console.log(
    `baseline  bare HTTP sender, no database: ${fmt(base.perSecond)} deliveries/s, ` +
      `CPU ${fmt(base.cpuUsPerDelivery)} µs per delivery in this process`
  )
  const pgUrl = process.env.TUMA_BENCH_DATABASE_URL ?? process.env.TUMA_TEST_DATABASE_URL
  const targets: Array<[string, Layer.Layer<SqlClient.SqlClient, unknown>]> = [
    ["pglite", Database.layer(Database.pglite("memory://"))]
  ]
  if (pgUrl) targets.push(["postgres", scratchPostgres(pgUrl, { maxConnections: 20 })])
  for (const [label, db] of targets) {
    const r = yield* runOn(label, db, rx)
    console.log(
      `${label.padEnd(9)} burst: ${fmt(r.perSecond)} deliveries/s (${
        fmt(r.perSecond / base.perSecond, 2)
      }x baseline), ` +
        `final state → receipt p50 ${fmt(r.p50)} ms, p99 ${fmt(r.p99)} ms`
    )
    console.log(
      `${"".padEnd(9)} CPU ${fmt(r.cpuUsPerDelivery)} µs per delivery (${
        fmt(r.cpuUsPerDelivery / base.cpuUsPerDelivery, 2)
      }x ` +
        `baseline) → ~${fmt(1e6 / r.cpuUsPerDelivery)} deliveries/s per CPU core of this process`
    )
    console.log(
      `${"".padEnd(9)} paced at ${fmt(PACED_RATE)}/s: final state → receipt p50 ${fmt(r.paced.p50)} ms, ` +
        `p99 ${fmt(r.paced.p99)} ms`
    )
    console.log(`${"".padEnd(9)} target ≥ 1,000 deliveries/s: ${r.perSecond >= 1_000 ? "met" : "NOT met"}`)
  }
  if (rx.bad() > 0) console.log(`WARNING: ${rx.bad()} webhooks failed signature verification`)
})

Effect.runPromise(Effect.scoped(main)).then(
  () => process.exit(0),
  (e) => {
    console.error(e)
    process.exit(1)
  }
)

/**
 * `pnpm bench:dispatch` — 10,000 queued messages through ONE worker to the SMSC simulator over SMPP,
 * with a delivery receipt per message, every state change (processing, sent, delivered) committed.
 *
 * Prints messages/s from queued to delivered on PostgreSQL and on embedded PGlite, against a floor
 * measured in the same run: a bare `smpp` client submitting the same 10,000 messages to the same
 * simulator and acknowledging their receipts (no database at all). BENCH_RUNS rounds (3), each the
 * floor then every database, so a ratio compares runs seconds apart on a shared machine; medians.
 * A short untimed warm-up (2,000 messages each) precedes the rounds: a worker runs for hours.
 *
 * The simulator runs in a child process (DispatchBenchSmsc.ts; an SMSC is another machine in real
 * life), BENCH_SMSC=inprocess runs it in this process, sharing the worker's event loop as before.
 *
 * Also prints the queue measurement behind docs/delivery.md's choice of a `FOR UPDATE SKIP LOCKED`
 * claim over @effect/sql's SqlPersistedQueue (same elements, same database).
 *
 * Env: BENCH_MESSAGES (10000), BENCH_RUNS (3), BENCH_DATABASE_URL (admin URL of a PostgreSQL server;
 * default TUMA_TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres; a scratch database
 * is created and dropped), BENCH_SKIP_PGLITE=1, BENCH_SKIP_QUEUE=1, BENCH_OPTIONS (JSON DeliveryOptions),
 * BENCH_PROFILE=<dir> (a V8 CPU profile of each timed pipeline run, written there).
 *
 * Each run also prints the CPU seconds this process (worker + simulator; PGlite too) and the
 * PostgreSQL backends of the scratch database used during it, and the load average, so a reader can
 * tell a slow run from a busy machine.
 */
import * as PersistedQueue from "@effect/experimental/PersistedQueue"
import { SqlClient } from "@effect/sql"
import * as SqlPersistedQueue from "@effect/sql/SqlPersistedQueue"
import { Send } from "@tuma/core"
import type { DeliveryWriterStats } from "@tuma/core/delivery/DeliveryWriter"
import { DeliveryWriter } from "@tuma/core/delivery/DeliveryWriter"
import type { DispatcherStats } from "@tuma/core/delivery/Dispatcher"
import { DispatcherCounts } from "@tuma/core/delivery/Dispatcher"
import * as Database from "@tuma/store-sql/Database"
import { Context, Effect, Layer, Schema } from "effect"
import { fork } from "node:child_process"
import { readdirSync, readFileSync, writeFileSync } from "node:fs"
import { Session } from "node:inspector"
import { loadavg } from "node:os"
import smpp from "smpp"
import { makeSmscSimulator } from "../src/smsc/SmscSimulator.js"
import { baseStack, scratchDatabase, setupAccount, smppConfig, workers } from "../test/support/stack.js"

const N = Number(process.env.BENCH_MESSAGES ?? 10_000)
const RUNS = Number(process.env.BENCH_RUNS ?? 3)
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? process.env.TUMA_TEST_DATABASE_URL ??
  "postgres://postgres@127.0.0.1:5432/postgres"

const median = (xs: ReadonlyArray<number>) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
}
const fmt = (n: number) => Math.round(n).toLocaleString("en-US")
/**
 * CPU seconds used so far by the PostgreSQL backends serving `database` (their process title names
 * it), so other clients of the same server do not count; 0 when /proc is unreadable.
 */
const postgresCpu = (database: string | null): number => {
  if (database === null) return 0
  let ticks = 0
  try {
    for (const pid of readdirSync("/proc")) {
      if (!/^\d+$/.test(pid)) continue
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
        if (!stat.includes("(postgres)")) continue
        if (!readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(` ${database} `)) continue
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
        ticks += Number(fields[11]) + Number(fields[12])
      } catch {
        // the process ended meanwhile
      }
    }
  } catch {
    return 0
  }
  return ticks / 100
}

/** Measures CPU (this process, PostgreSQL) over a run; profiles it when BENCH_PROFILE is set. */
const cpuMeter = (label: string, database: string | null) => {
  const dir = process.env.BENCH_PROFILE
  const session = dir === undefined ? null : new Session()
  if (session !== null) {
    session.connect()
    session.post("Profiler.enable")
    session.post("Profiler.start")
  }
  const own = process.cpuUsage()
  const pg = postgresCpu(database)
  return () => {
    const used = process.cpuUsage(own)
    if (session !== null) {
      session.post("Profiler.stop", (err, res) => {
        if (err === null) writeFileSync(`${dir}/${label}-${Date.now()}.cpuprofile`, JSON.stringify(res.profile))
        session.disconnect()
      })
    }
    const server = database === null ? "" : `, postgres ${(postgresCpu(database) - pg).toFixed(1)} s`
    return `node ${((used.user + used.system) / 1e6).toFixed(1)} s${server}, ` +
      `load ${loadavg()[0]!.toFixed(1)}`
  }
}

const recipient = (i: number) => `+25575${String(i).padStart(7, "0")}`

/** The simulator (receipts 5 ms after each submit): a child process, or this one (BENCH_SMSC=inprocess). */
const smsc = process.env.BENCH_SMSC === "inprocess"
  ? Effect.map(
    makeSmscSimulator({ receiptDelayMs: 5, record: false }),
    (sim) => ({ port: sim.port, where: "in this process (sharing the worker's event loop)" })
  )
  : Effect.acquireRelease(
    Effect.async<{ port: number; where: string; child: ReturnType<typeof fork> }>((resume) => {
      const child = fork(new URL("./DispatchBenchSmsc.ts", import.meta.url), [], {
        execArgv: ["--conditions=@tuma/source", "--import", "tsx"],
        stdio: ["ignore", "inherit", "inherit", "ipc"]
      })
      child.once("error", (e) => resume(Effect.die(e)))
      child.on("message", (m: any) => {
        if (m.type === "listening") resume(Effect.succeed({ port: m.port, where: "in a child process", child }))
      })
    }),
    ({ child }) => Effect.sync(() => child.kill())
  )

/** Floor: a bare smpp client, window 100, submitting `n` messages and acknowledging their receipts. */
const bareClient = (sim: { readonly port: number }, n = N) =>
  new Promise<number>((resolve, reject) => {
    const session = smpp.connect({ host: "127.0.0.1", port: sim.port })
    session.on("error", reject)
    let sent = 0
    let outstanding = 0
    let receipts = 0
    let t0 = 0
    const pump = () => {
      while (outstanding < 100 && sent < n) {
        const i = sent++
        outstanding++
        session.submit_sm({
          source_addr_ton: 5,
          source_addr: "TUMA",
          dest_addr_ton: 1,
          dest_addr_npi: 1,
          destination_addr: recipient(i).slice(1),
          registered_delivery: 1,
          data_coding: 0,
          short_message: Buffer.from(`bench message ${i}`)
        }, () => {
          outstanding--
          pump()
        })
      }
    }
    session.on("deliver_sm", (pdu: smpp.PDU) => {
      session.send(pdu.response())
      if (++receipts === n) {
        const elapsed = performance.now() - t0
        session.close()
        resolve(n / (elapsed / 1000))
      }
    })
    session.on("connect", () =>
      session.bind_transceiver({ system_id: "tuma", password: "secret" }, (pdu) => {
        if (pdu.command_status !== 0) return reject(new Error("bind failed"))
        t0 = performance.now()
        pump()
      }))
  })

/** One pipeline run: `n` messages accepted (not timed), then one worker until all are delivered. */
/** The last run's writer totals and every run's dispatcher totals (each run's workers count their own). */
let writerStats: DeliveryWriterStats | null = null
const dispatcherStats: DispatcherStats = { claimed: 0, sent: 0, failed: 0, requeued: 0, unknown: 0 }

const pipelineRun = (name: string, database: string | null, sim: { readonly port: number }, n = N) =>
  Effect.gen(function*() {
    const { account, caller, providerIds } = yield* setupAccount({
      balance: n,
      providers: [{ kind: "smpp", config: smppConfig(sim.port, { window: 100, unavailableAfterMs: 5000 }) }]
    })
    const send = yield* Send
    for (let i = 0; i < n; i += 1000) {
      const recipients = Array.from({ length: Math.min(1000, n - i) }, (_, k) => recipient(i + k))
      yield* send.bulkV1(caller, { recipients, sender_id: "TUMA", message: `bench message ${i}` })
    }
    const sql = yield* SqlClient.SqlClient
    const count = sql<{ n: number }>`SELECT count(*)::int AS n FROM messages
      WHERE account_id = ${account.id} AND status = 'delivered'`.pipe(Effect.map((r) => r[0]!.n))
    const start = Date.now()
    const meter = cpuMeter(name, database)
    yield* Effect.gen(function*() {
      while ((yield* count) < n) yield* Effect.sleep("100 millis")
      writerStats = (yield* DeliveryWriter).stats
      const counts = yield* DispatcherCounts
      for (const k of ["claimed", "sent", "failed", "requeued", "unknown"] as const) dispatcherStats[k] += counts[k]
    }).pipe(Effect.provide(workers({ pollIntervalMs: 50, ...JSON.parse(process.env.BENCH_OPTIONS ?? "{}") })))
    const [row] = yield* sql<{ last: Date; not_final: number }>`SELECT max(delivered_at) AS last,
      count(*) FILTER (WHERE status <> 'delivered')::int AS not_final FROM messages WHERE account_id = ${account.id}`
    if (row!.not_final !== 0) throw new Error("not every message delivered")
    const elapsed = row!.last.getTime() - start
    const cpu = meter()
    yield* sql`UPDATE providers SET enabled = false WHERE id = ${providerIds[0]!}`
    return { rate: n / (elapsed / 1000), cpu }
  }).pipe(Effect.scoped)

/** The queue choice: N elements offered then taken and acknowledged by 100 concurrent consumers. */
const queueCompare = (db: Layer.Layer<SqlClient.SqlClient>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const M = Math.min(N, 5000)
    // (a) @effect/sql SqlPersistedQueue (one UPDATE per take batch, one UPDATE per acknowledgement)
    const persisted = yield* Effect.gen(function*() {
      const queue = yield* PersistedQueue.make({ name: "bench", schema: Schema.Struct({ i: Schema.Number }) })
      yield* Effect.forEach(Array.from({ length: M }, (_, i) => i), (i) => queue.offer({ i }), { concurrency: 20 })
      const t0 = performance.now()
      let done = 0
      yield* Effect.forEach(Array.from({ length: 100 }), () =>
        Effect.gen(function*() {
          while (done < M) {
            yield* queue.take(() => Effect.sync(() => void done++)).pipe(Effect.timeout("2 seconds"), Effect.ignore)
          }
        }), { concurrency: "unbounded", discard: true })
      return M / ((performance.now() - t0) / 1000)
    }).pipe(
      Effect.provide(
        PersistedQueue.layer.pipe(Layer.provide(SqlPersistedQueue.layerStore({ pollInterval: "50 millis" })))
      ),
      Effect.scoped
    )
    // (b) our claim: FOR UPDATE SKIP LOCKED batches of 500 leased by available_at, batched delete
    yield* sql.unsafe(`CREATE TABLE bench_queue (id bigint PRIMARY KEY, available_at timestamptz NOT NULL,
      lease_owner text, attempts int NOT NULL DEFAULT 0)`)
    yield* sql.unsafe(`INSERT INTO bench_queue (id, available_at) SELECT g, now() FROM generate_series(1, ${M}) g`)
    const t1 = performance.now()
    let taken = 0
    while (taken < M) {
      const rows = yield* sql.unsafe<{ id: string }>(
        `WITH c AS (SELECT id FROM bench_queue WHERE available_at <= now() ORDER BY available_at LIMIT 500 FOR UPDATE SKIP LOCKED)
         UPDATE bench_queue q SET lease_owner = 'w', available_at = now() + interval '2 minutes', attempts = q.attempts + 1
         FROM c WHERE q.id = c.id RETURNING q.id`
      )
      yield* sql.unsafe(`DELETE FROM bench_queue WHERE id = ANY($1::bigint[])`, [rows.map((r) => r.id)])
      taken += rows.length
    }
    const claim = M / ((performance.now() - t1) / 1000)
    yield* sql.unsafe(`DROP TABLE bench_queue`)
    return { M, persisted, claim }
  }).pipe(Effect.provide(db))

interface Target {
  readonly name: string
  /** Database whose server backends are metered (PostgreSQL), null when in-process (PGlite). */
  readonly database: string | null
  readonly context: Context.Context<Layer.Layer.Success<ReturnType<typeof baseStack>>>
  readonly rates: Array<number>
  readonly ratios: Array<number>
}

const main = Effect.gen(function*() {
  console.log(`bench:dispatch — ${fmt(N)} messages, ${RUNS} runs, one worker, SMPP with a receipt per message`)
  console.log(`(each round: the floor, then each database; ratios are to that round's floor)\n`)
  const sim = yield* smsc
  console.log(`SMSC simulator ${sim.where}`)
  const targets: Array<Target> = []
  const pgUrl = yield* scratchDatabase(ADMIN_URL).pipe(Effect.option)
  const pgDb = pgUrl._tag === "Some"
    ? Database.layer(Database.postgres(pgUrl.value, { maxConnections: 10 })).pipe(Layer.orDie)
    : null
  if (pgUrl._tag === "Some" && pgDb !== null) {
    const context = yield* Layer.build(baseStack(pgDb))
    const database = new URL(pgUrl.value).pathname.slice(1)
    targets.push({ name: "PostgreSQL", database, context, rates: [], ratios: [] })
  } else {
    console.log(`  PostgreSQL unavailable at ${ADMIN_URL}: skipped`)
  }
  if (process.env.BENCH_SKIP_PGLITE !== "1") {
    const context = yield* Layer.build(baseStack(Database.layer(Database.pglite("memory://")).pipe(Layer.orDie)))
    targets.push({ name: "PGlite", database: null, context, rates: [], ratios: [] })
  }
  // warm-up, not timed: JIT, the simulator's first connection, each database's first batches
  yield* Effect.promise(() => bareClient(sim, 2000))
  for (const t of targets) yield* pipelineRun(`${t.name}-warmup`, t.database, sim, 2000).pipe(Effect.provide(t.context))
  const floor: Array<number> = []
  for (let r = 0; r < RUNS; r++) {
    floor.push(yield* Effect.promise(() => bareClient(sim)))
    console.log(`  round ${r + 1}: floor (bare smpp client) ${fmt(floor[r]!)} msg/s, load ${loadavg()[0]!.toFixed(1)}`)
    for (const t of targets) {
      const { cpu, rate } = yield* pipelineRun(t.name, t.database, sim).pipe(Effect.provide(t.context))
      t.rates.push(rate)
      t.ratios.push(rate / floor[r]!)
      console.log(
        `  round ${r + 1}: ${t.name} ${fmt(rate)} msg/s, ratio ${(rate / floor[r]!).toFixed(2)}  (${cpu}; ` +
          `writer: ${JSON.stringify(writerStats)})`
      )
    }
  }
  if (pgDb !== null && process.env.BENCH_SKIP_QUEUE !== "1") {
    const q = yield* queueCompare(pgDb)
    console.log(
      `\nqueue (PostgreSQL, ${fmt(q.M)} elements taken + acknowledged): SqlPersistedQueue ${fmt(q.persisted)}/s, ` +
        `SKIP LOCKED batch claim ${fmt(q.claim)}/s (x${(q.claim / q.persisted).toFixed(1)})`
    )
  }
  console.log(`\nqueued -> delivered, medians of ${RUNS} rounds; floor ${fmt(median(floor))} msg/s:`)
  for (const t of targets) {
    console.log(
      `  ${t.name.padEnd(11)} ${fmt(median(t.rates)).padStart(7)} msg/s   ratio to floor ${median(t.ratios).toFixed(2)}`
    )
  }
  console.log(`  (target >= 2,500 msg/s on PostgreSQL; dispatcher totals: ${JSON.stringify(dispatcherStats)})`)
}).pipe(Effect.scoped)

Effect.runPromise(main).then(() => process.exit(0), (e) => {
  console.error(e)
  process.exit(1)
})

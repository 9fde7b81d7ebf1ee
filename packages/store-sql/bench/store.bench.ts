/**
 * `pnpm bench:store` — how long accepting a bulk v2 campaign of 1,000 personalised recipients takes
 * (validate, render, price, check, charge, store, enqueue: `Send.bulkV2` end to end, no HTTP), on
 * PostgreSQL and on PGlite, against a floor measured in the same run on the same database: one
 * transaction with one multi-row INSERT of 1,000 equivalent message rows.
 *
 * PostgreSQL: `DATABASE_URL`, else `TUMA_TEST_DATABASE_URL`, else postgres://postgres@127.0.0.1:5432/postgres
 * (a scratch database is created and dropped). Iterations: `BENCH_ITERATIONS` (default 21).
 */
import { SqlClient } from "@effect/sql"
import { Ids, Operator, Send, SendStore } from "@tuma/core"
import { Effect, Layer } from "effect"
import * as Database from "../src/Database.js"
import * as SqlContentCounter from "../src/SqlContentCounter.js"
import * as SqlOperatorStore from "../src/SqlOperatorStore.js"
import * as SqlSendStore from "../src/SqlSendStore.js"
import { benchAccount, scratchPostgres } from "./scratch.js"

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 21)
const WARMUP = 3
const RECIPIENTS = 1000

const adminUrl = process.env.DATABASE_URL ?? process.env.TUMA_TEST_DATABASE_URL ??
  "postgres://postgres@127.0.0.1:5432/postgres"

const median = (xs: ReadonlyArray<number>) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}
const ms = (n: number) => `${n.toFixed(1)} ms`

const timed = <A, E, R>(eff: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const t0 = performance.now()
    yield* eff
    return performance.now() - t0
  })

const recipients = Array.from({ length: RECIPIENTS }, (_, i) => ({
  to: `+25571${String(2000000 + i).padStart(7, "0")}`,
  name: `Customer ${i}`,
  amount: 15000 + i,
  paid: 5000
}))
const request = {
  recipients,
  message: "Habari {name}, your balance is {= amount - paid } TZS. Pay before Friday to keep your service.",
  sender_id: "TUMA",
  campaign_name: "Bench"
}

/** Time spent inside the store during the current campaign (snapshot read, accept transaction). */
const storeTime = { snapshot: 0, accept: 0 }
const measure = <A>(key: keyof typeof storeTime, eff: Effect.Effect<A>) =>
  Effect.suspend(() => {
    const t0 = performance.now()
    return Effect.ensuring(eff, Effect.sync(() => (storeTime[key] += performance.now() - t0)))
  })
const timedStore = Layer.effect(
  SendStore,
  Effect.map(SqlSendStore.make, (store) =>
    SendStore.of({
      ...store,
      snapshot: (r) => measure("snapshot", store.snapshot(r)),
      accept: (p) => measure("accept", store.accept(p))
    }))
)

const run = (label: string) =>
  Effect.gen(function*() {
    const send = yield* Send
    const sql = yield* SqlClient.SqlClient
    const caller = yield* benchAccount
    const [{ market_id }] = yield* sql<{ market_id: string }>`SELECT id AS market_id FROM markets WHERE iso2 = 'TZ'`

    // the floor: 1,000 equivalent rows, one multi-row INSERT, one transaction
    const floorRows = () =>
      recipients.map((r) => ({
        id: crypto.randomUUID(),
        account_id: caller.accountId,
        api_key_id: caller.apiKeyId,
        campaign_id: null,
        market_id,
        country: "TZ",
        recipient: r.to,
        sender_id: "TUMA",
        text: `Habari ${r.name}, your balance is ${r.amount - r.paid} TZS. Pay before Friday to keep your service.`,
        encoding: "GSM-7",
        parts: 1,
        units: 1,
        channel: "api",
        status: "queued",
        idempotency_key: null,
        created_at: new Date(),
        queued_at: new Date(),
        updated_at: new Date()
      }))
    const floor = Effect.suspend(() => {
      const rows = floorRows()
      return sql.withTransaction(sql`INSERT INTO messages ${sql.insert(rows)}`)
    })
    const campaign = (i: number) =>
      send.bulkV2({ ...caller, idempotencyKey: `bench-${Date.now()}-${i}` }, request).pipe(
        Effect.tap((out) => {
          if (out.data.queued_count !== RECIPIENTS) throw new Error(`queued ${out.data.queued_count}`)
        })
      )
    const single = send.single(caller, { recipient: recipients[0].to, sender_id: "TUMA", body: "Hello" })

    for (let i = 0; i < WARMUP; i++) {
      yield* floor
      yield* campaign(-i - 1)
      yield* single
    }
    const floors: Array<number> = []
    const campaigns: Array<number> = []
    const singles: Array<number> = []
    const snapshots: Array<number> = []
    const accepts: Array<number> = []
    for (let i = 0; i < ITERATIONS; i++) {
      // interleaved, so both see the same machine load
      floors.push(yield* timed(floor))
      storeTime.snapshot = storeTime.accept = 0
      campaigns.push(yield* timed(campaign(i)))
      snapshots.push(storeTime.snapshot)
      accepts.push(storeTime.accept)
      singles.push(yield* timed(single))
    }
    const c = median(campaigns)
    const f = median(floors)
    console.log(`\n${label}`)
    console.log(`  bulk v2, 1,000 personalised recipients: median ${ms(c)}  (min ${ms(Math.min(...campaigns))})`)
    console.log(`  floor, 1,000-row INSERT in a transaction: median ${ms(f)}  (min ${ms(Math.min(...floors))})`)
    console.log(
      `    of which: snapshot read ${ms(median(snapshots))}, accept transaction ${ms(median(accepts))}, ` +
        `in-process (validate, render, price, check) ${ms(c - median(snapshots) - median(accepts))}`
    )
    console.log(`  ratio campaign / floor: ${(c / f).toFixed(2)}x`)
    console.log(`  single send: median ${ms(median(singles))}`)
    return { campaign: c, floor: f }
  })

const services = <E>(db: Layer.Layer<SqlClient.SqlClient, E>) =>
  Layer.mergeAll(Send.layer, Operator.layer).pipe(
    Layer.provideMerge(Layer.mergeAll(timedStore, SqlOperatorStore.layer, SqlContentCounter.layer)),
    Layer.provide(Ids.layer),
    Layer.provideMerge(db)
  )

const main = Effect.gen(function*() {
  console.log(`bench:store — ${ITERATIONS} iterations after ${WARMUP} warm-up rounds, node ${process.version}`)
  const pg = yield* Effect.either(
    Effect.scoped(
      Effect.flatMap(
        Layer.build(services(scratchPostgres(adminUrl))),
        (ctx) => Effect.provide(run(`PostgreSQL (${new URL(adminUrl).host})`), ctx)
      )
    )
  )
  if (pg._tag === "Left") console.log(`\nPostgreSQL: skipped (${String(pg.left)})`)
  else {
    const ok = pg.right.campaign <= 75 && pg.right.campaign <= 4 * pg.right.floor
    console.log(`  target (≤ 75 ms and ≤ 4x floor): ${ok ? "met" : "NOT met"}`)
  }
  yield* Effect.scoped(
    Effect.flatMap(
      Layer.build(services(Database.layer(Database.pglite("memory://")))),
      (ctx) => Effect.provide(run("PGlite (in-memory, in-process)"), ctx)
    )
  )
})

Effect.runPromise(main.pipe(Effect.orDie)).then(() => process.exit(0), (e) => {
  console.error(e)
  process.exit(1)
})

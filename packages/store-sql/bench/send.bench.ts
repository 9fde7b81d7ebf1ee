/**
 * `pnpm bench:send` — CPU of the single send below HTTP (`Send.single` over `SqlSendStore`, the SQL
 * duplicate-content counter, PostgreSQL): `BENCH_CONCURRENCY` (32) fibers send `BENCH_SENDS` (6,000)
 * messages after a warm-up, each a new recipient and text, and the process's CPU per send is printed
 * (user + system, `process.cpuUsage`), with sends/s. Profile it with `node --cpu-prof`.
 *
 * PostgreSQL: `DATABASE_URL`, else `TUMA_TEST_DATABASE_URL`, else postgres://postgres@127.0.0.1:5432/postgres
 * (a scratch database is created and dropped).
 */
import { Ids, Operator, Send } from "@tuma/core"
import { Effect, Layer } from "effect"
import * as SqlContentCounter from "../src/SqlContentCounter.js"
import * as SqlOperatorStore from "../src/SqlOperatorStore.js"
import * as SqlSendStore from "../src/SqlSendStore.js"
import { benchAccount, scratchPostgres } from "./scratch.js"

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32)
const SENDS = Number(process.env.BENCH_SENDS ?? 6000)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const adminUrl = process.env.DATABASE_URL ?? process.env.TUMA_TEST_DATABASE_URL ??
  "postgres://postgres@127.0.0.1:5432/postgres"

const services = Layer.mergeAll(Send.layer, Operator.layer).pipe(
  Layer.provideMerge(Layer.mergeAll(SqlSendStore.layer, SqlOperatorStore.layer, SqlContentCounter.layer)),
  Layer.provide(Ids.layer),
  Layer.provideMerge(scratchPostgres(adminUrl))
)

let n = 0
const run = Effect.gen(function*() {
  const send = yield* Send
  const caller = yield* benchAccount
  const one = Effect.suspend(() => {
    const k = n++
    return send.single(caller, {
      recipient: `+25571${String(k % 10_000_000).padStart(7, "0")}`,
      sender_id: "TUMA",
      body: `Bench message ${k}`
    })
  })
  const batch = (count: number) =>
    Effect.forEach(
      Array.from(
        { length: CONCURRENCY },
        (_, i) => Math.floor(count / CONCURRENCY) + (i < count % CONCURRENCY ? 1 : 0)
      ),
      (k) => Effect.repeatN(one, k - 1),
      { concurrency: "unbounded", discard: true }
    )
  yield* batch(1000)
  for (let r = 0; r < ROUNDS; r++) {
    const c0 = process.cpuUsage()
    const t0 = performance.now()
    yield* batch(SENDS)
    const c = process.cpuUsage(c0)
    const s = (performance.now() - t0) / 1000
    console.log(
      `bench:send round ${r + 1}: ${(SENDS / s).toFixed(0)} sends/s, ` +
        `${((c.user + c.system) / SENDS).toFixed(0)} µs CPU per send (${CONCURRENCY} concurrent)`
    )
  }
})

Effect.runPromise(Effect.scoped(Effect.flatMap(Layer.build(services), (ctx) => Effect.provide(run, ctx)))).then(
  () => process.exit(0),
  (e) => {
    console.error(e)
    process.exit(1)
  }
)

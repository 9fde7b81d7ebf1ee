/**
 * `pnpm bench:statement` — the server's CPU for one statement round trip to PostgreSQL: `SELECT $1::int`
 * BENCH_STATEMENTS (10,000) times in a row after a warm-up, with the `pg` client alone, then through
 * the store's `SqlClient` (`@effect/sql-pg` over PgPrepared's preparing pool), then as transactions
 * of three statements (BEGIN, three, COMMIT: five round trips). Prints this process's CPU (user +
 * system, `process.cpuUsage`) per statement or transaction; the kernel's loopback TCP is counted in it.
 *
 * PostgreSQL: `DATABASE_URL`, else `TUMA_TEST_DATABASE_URL`, else postgres://postgres@127.0.0.1:5432/postgres.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Redacted } from "effect"
import pg from "pg"
import * as PgPrepared from "../src/PgPrepared.js"

const N = Number(process.env.BENCH_STATEMENTS ?? 10_000)
const url = process.env.DATABASE_URL ?? process.env.TUMA_TEST_DATABASE_URL ??
  "postgres://postgres@127.0.0.1:5432/postgres"
const text = "SELECT $1::int AS x"

const cpuMicros = () => {
  const u = process.cpuUsage()
  return u.user + u.system
}

/** µs of CPU per unit of `count` units of `work`. */
const per = async (count: number, work: () => Promise<void>) => {
  const t = cpuMicros()
  await work()
  return (cpuMicros() - t) / count
}

const raw = async () => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  for (let i = 0; i < 1000; i++) await (client.query(text, [i]) as Promise<unknown>)
  const us = await per(N, async () => {
    for (let i = 0; i < N; i++) await (client.query(text, [i]) as Promise<unknown>)
  })
  await client.end()
  return us
}

const throughStore = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const one = (i: number) => sql.unsafe(text, [i])
  for (let i = 0; i < 1000; i++) yield* one(i)
  const run = (count: number, work: Effect.Effect<void, unknown>) =>
    Effect.promise(() => per(count, () => Effect.runPromise(Effect.orDie(work))))
  const statement = yield* run(N, Effect.forEach(Array.from({ length: N }, (_, i) => i), one, { discard: true }))
  const transactions = N / 5
  const transaction = yield* run(
    transactions,
    Effect.forEach(
      Array.from({ length: transactions }, (_, i) => i),
      (i) => sql.withTransaction(Effect.all([one(i), one(i + 1), one(i + 2)], { discard: true })),
      { discard: true }
    )
  )
  return { statement, transaction }
}).pipe(Effect.scoped, Effect.provide(PgPrepared.layer(Redacted.make(url), 4)))

const main = async () => {
  const pgAlone = await raw()
  const store = await Effect.runPromise(Effect.orDie(throughStore))
  const load = (await import("node:os")).loadavg()[0].toFixed(2)
  console.log(
    `bench:statement: pg_us_per_statement=${pgAlone.toFixed(1)} store_us_per_statement=${store.statement.toFixed(1)} ` +
      `store_us_per_transaction_of_3=${store.transaction.toFixed(1)} ratio=${
        (store.statement / pgAlone).toFixed(2)
      } load=${load}`
  )
}

main()

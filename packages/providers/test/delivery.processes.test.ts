/**
 * Worker processes on PostgreSQL (`tuma worker`, spawned as real processes): one SIGKILLed in the
 * middle of 1,000 rate-limited dispatches (the next one takes its claims over without waiting for
 * their lease, every message still reaches a final state, at most the submits in flight are
 * repeated), and two running side by side (no message submitted twice). Needs TUMA_TEST_DATABASE_URL (PGlite lives in one process).
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Send } from "@tuma/core"
import * as Database from "@tuma/store-sql/Database"
import type { Scope } from "effect"
import { Effect, Layer } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { makeSmscSimulator, type SmscSimulator } from "../src/smsc/SmscSimulator.js"
import {
  baseStack,
  scratchDatabase,
  setupAccount,
  smppConfig,
  testDatabaseUrl,
  waitForMessages
} from "./support/stack.js"

const BIN = fileURLToPath(new URL("../../http/src/bin.ts", import.meta.url))

/** Spawns `tuma worker` on `url`; resolves once it reports running; killed when the scope closes. */
const spawnWorker = (url: string, env: Record<string, string> = {}) =>
  Effect.acquireRelease(
    Effect.async<ChildProcess>((resume) => {
      const child = spawn(process.execPath, ["--conditions=@tuma/source", "--import", "tsx", BIN, "worker"], {
        env: { ...process.env, DATABASE_URL: url, TUMA_DELIVERY_POLL_MS: "200", ...env },
        stdio: ["ignore", "pipe", "pipe"]
      })
      let out = ""
      const onData = (d: Buffer) => {
        out += d.toString()
        if (/worker \d+ running/.test(out)) {
          child.stdout!.off("data", onData)
          resume(Effect.succeed(child))
        }
      }
      child.stdout!.on("data", onData)
      child.stderr!.on("data", (d: Buffer) => void (out += d.toString()))
      child.on("exit", (code) => {
        if (!/worker \d+ running/.test(out)) resume(Effect.die(new Error(`worker exited (${code}): ${out}`)))
      })
    }),
    (child) =>
      Effect.promise(() =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve()
          child.once("exit", () => resolve())
          child.kill("SIGKILL")
        })
      )
  )

const perDestination = (sim: SmscSimulator) => {
  const counts = new Map<string, number>()
  for (const p of sim.received) {
    if (p.answer === "ok") counts.set(p.destinationAddr, (counts.get(p.destinationAddr) ?? 0) + 1)
  }
  return counts
}

const numbers = (n: number, offset: number) =>
  Array.from({ length: n }, (_, i) => `+25574${String(offset + i).padStart(7, "0")}`)

/** A scratch PostgreSQL database with the services of the stack over it. */
const withDatabase = <A, E>(
  f: (url: string) => Effect.Effect<A, E, Layer.Layer.Success<ReturnType<typeof baseStack>> | Scope.Scope>
) =>
  Effect.gen(function*() {
    const url = yield* scratchDatabase(testDatabaseUrl!)
    const db = Database.layer(Database.postgres(url, { maxConnections: 10 })).pipe(Layer.orDie)
    return yield* f(url).pipe(Effect.scoped, Effect.provide(baseStack(db)))
  }).pipe(Effect.scoped)

describe.runIf(testDatabaseUrl !== undefined)("worker processes on PostgreSQL", () => {
  it.live(
    "a worker SIGKILLed in the middle of 1,000 rate-limited dispatches: the next one takes its claims over " +
      "without waiting for their lease, and re-sends at most what was in flight",
    () =>
      withDatabase((url) =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const sim = yield* makeSmscSimulator({ receiptDelayMs: 20 })
          const perSecond = 250
          const window = 50
          const { account, caller } = yield* setupAccount({
            providers: [{ kind: "smpp", config: smppConfig(sim.port, { maxPerSecond: perSecond, window }) }]
          })
          const send = yield* Send
          const recipients = numbers(1000, 0)
          yield* send.bulkV1(caller, { recipients, sender_id: "TUMA", message: "one of a thousand" })
          // default claim sizes and lease (120 s): the killed worker holds every message it claimed
          const leaseMs = 120_000
          const env = { TUMA_DELIVERY_LEASE_MS: String(leaseMs), TUMA_DELIVERY_TAKEOVER_MS: "2000" }
          const killed = yield* Effect.scoped(Effect.gen(function*() {
            const first = yield* spawnWorker(url, env)
            yield* Effect.promise(() => sim.waitUntil(() => sim.counters.accepted >= 300, 120_000))
            // the one worker running: the owner of the leases
            const [owner] = yield* sql<{ owner: string }>`SELECT DISTINCT lease_owner AS owner FROM dispatch_queue
              WHERE available_at > now() AND lease_owner IS NOT NULL`
            first.kill("SIGKILL")
            yield* Effect.promise(() => new Promise((r) => first.once("exit", r)))
            return owner!.owner
          }))
          const killedAt = Date.now()
          const acceptedAtKill = sim.counters.accepted
          const held = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM dispatch_queue
            WHERE lease_owner = ${killed} AND available_at > now()`
          expect(held[0]!.n).toBeGreaterThan(0)
          const { rows, takenOverMs } = yield* Effect.scoped(Effect.gen(function*() {
            yield* spawnWorker(url, env)
            const started = Date.now()
            // the killed worker's claims become claimable long before their lease ends
            let left = held[0]!.n
            while (left > 0 && Date.now() - started < leaseMs) {
              yield* Effect.sleep("100 millis")
              const [r] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM dispatch_queue
                WHERE lease_owner = ${killed} AND available_at > now()`
              left = r!.n
            }
            const takenOverMs = Date.now() - started
            return { rows: yield* waitForMessages(account.id, undefined, 2 * leaseMs), takenOverMs }
          }))
          const settledMs = Date.now() - killedAt
          expect(rows.filter((r) => r.status === "delivered")).toHaveLength(1000)
          const counts = perDestination(sim)
          expect(new Set(counts.keys())).toEqual(new Set(recipients.map((r) => r.slice(1))))
          const after = sim.received.filter((p) => p.answer === "ok" && p.receivedAt > killedAt).map((p) =>
            p.receivedAt
          )
          const rate = after.length / ((after[after.length - 1]! - after[0]!) / 1000)
          // re-sent: only what the killed worker had handed to the carrier and not yet recorded
          const twice = [...counts.values()].filter((n) => n > 1).length
          console.log(
            `SIGKILL test: killed after ${acceptedAtKill} accepted holding ${held[0]!.n} claims; taken over ` +
              `${takenOverMs} ms after the next worker started; all delivered ${settledMs} ms after the kill; ` +
              `next worker ${after.length} submits at ${rate.toFixed(0)}/s (limit ${perSecond}/s); ` +
              `${twice} messages submitted twice`
          )
          expect(takenOverMs).toBeLessThan(leaseMs / 2)
          expect(twice).toBeLessThanOrEqual(window + 10)
        })
      ),
    400_000
  )

  it.live(
    "two worker processes share the queue: 1,000 messages, none submitted twice",
    () =>
      withDatabase((url) =>
        Effect.gen(function*() {
          const sim = yield* makeSmscSimulator({ receiptDelayMs: 20, submitDelayMs: 2 })
          const { account, caller } = yield* setupAccount({
            providers: [{ kind: "smpp", config: smppConfig(sim.port) }]
          })
          const send = yield* Send
          const recipients = numbers(1000, 5000)
          const env = { TUMA_DELIVERY_CLAIM_BATCH: "50", TUMA_DELIVERY_MAX_IN_FLIGHT: "100" }
          const rows = yield* Effect.scoped(Effect.gen(function*() {
            yield* Effect.all([spawnWorker(url, env), spawnWorker(url, env)], { concurrency: 2 })
            yield* send.bulkV1(caller, { recipients, sender_id: "TUMA", message: "shared queue" })
            return yield* waitForMessages(account.id, undefined, 90_000)
          }))
          expect(rows.filter((r) => r.status === "delivered")).toHaveLength(1000)
          const counts = perDestination(sim)
          expect(counts.size).toBe(1000)
          expect([...counts.values()].every((n) => n === 1)).toBe(true)
          expect(sim.counters.binds).toBeGreaterThanOrEqual(2)
        })
      ),
    240_000
  )
})

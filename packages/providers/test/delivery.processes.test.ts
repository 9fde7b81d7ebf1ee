/**
 * Worker processes on PostgreSQL (`tuma worker`, spawned as real processes): one SIGKILLed in the
 * middle of 1,000 dispatches (every message still reaches a final state), and two running side by
 * side (no message submitted twice). Needs TUMA_TEST_DATABASE_URL (PGlite lives in one process).
 */
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
      const child = spawn(process.execPath, ["--import", "tsx", BIN, "worker"], {
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
    "a worker SIGKILLed in the middle of 1,000 dispatches: every message still reaches a final state",
    () =>
      withDatabase((url) =>
        Effect.gen(function*() {
          const sim = yield* makeSmscSimulator({ receiptDelayMs: 20 })
          const { account, caller } = yield* setupAccount({
            providers: [{ kind: "smpp", config: smppConfig(sim.port, { maxPerSecond: 250 }) }]
          })
          const send = yield* Send
          const recipients = numbers(1000, 0)
          yield* send.bulkV1(caller, { recipients, sender_id: "TUMA", message: "one of a thousand" })
          const env = {
            TUMA_DELIVERY_LEASE_MS: "3000",
            TUMA_DELIVERY_MAX_IN_FLIGHT: "200",
            TUMA_DELIVERY_CLAIM_BATCH: "100"
          }
          yield* Effect.scoped(Effect.gen(function*() {
            const first = yield* spawnWorker(url, env)
            yield* Effect.promise(() => sim.waitUntil(() => sim.counters.accepted >= 300, 60_000))
            first.kill("SIGKILL")
            yield* Effect.promise(() => new Promise((r) => first.once("exit", r)))
          }))
          const killedAt = sim.counters.accepted
          expect(killedAt).toBeLessThan(1000)
          const rows = yield* Effect.scoped(Effect.gen(function*() {
            yield* spawnWorker(url, env)
            return yield* waitForMessages(account.id, undefined, 90_000)
          }))
          expect(rows).toHaveLength(1000)
          expect(rows.filter((r) => r.status === "delivered")).toHaveLength(1000)
          const counts = perDestination(sim)
          expect(new Set(counts.keys())).toEqual(new Set(recipients.map((r) => r.slice(1))))
          // re-sent at most: what the killed worker held in flight (its lease window)
          const twice = [...counts.values()].filter((n) => n > 1).length
          expect(twice).toBeLessThanOrEqual(200)
          console.log(
            `SIGKILL test: killed after ${killedAt} accepted; ${twice} messages submitted twice (lease window)`
          )
        })
      ),
    240_000
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

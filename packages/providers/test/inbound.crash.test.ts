/**
 * Two-way SMS survives a crash (PostgreSQL, `tuma worker` spawned as a real process): the SMSC
 * simulator sends a two-part MO to the worker's carrier bind; the moment the message is stored the
 * worker is SIGKILLed — its deliver_sm_resp lost with it, as far as the carrier knows — and the
 * carrier, bound again to a new worker, re-sends both parts. Exactly one inbound message exists.
 * Needs TUMA_TEST_DATABASE_URL (PGlite lives in one process).
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import * as Database from "@tuma/store-sql/Database"
import { Effect, Layer } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { makeSmscSimulator } from "../src/smsc/SmscSimulator.js"
import { baseStack, scratchDatabase, setupAccount, smppConfig, testDatabaseUrl } from "./support/stack.js"

const BIN = fileURLToPath(new URL("../../http/src/bin.ts", import.meta.url))

/** Spawns `tuma worker` on `url`; resolves once it reports running; SIGKILLed when the scope closes. */
const spawnWorker = (url: string) =>
  Effect.acquireRelease(
    Effect.async<ChildProcess>((resume) => {
      const child = spawn(process.execPath, ["--conditions=@tuma/source", "--import", "tsx", BIN, "worker"], {
        env: { ...process.env, DATABASE_URL: url, TUMA_DELIVERY_POLL_MS: "200" },
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
    (child) => Effect.promise(() => kill(child))
  )

const kill = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once("exit", () => resolve())
    child.kill("SIGKILL")
  })

describe.runIf(testDatabaseUrl !== undefined)("inbound MO across a worker crash", () => {
  it.live(
    "SIGKILL between storing an MO and its deliver_sm_resp: the re-send makes no second message",
    () =>
      Effect.gen(function*() {
        const url = yield* scratchDatabase(testDatabaseUrl!)
        const db = Database.layer(Database.postgres(url, { maxConnections: 4 })).pipe(Layer.orDie)
        yield* Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const sim = yield* makeSmscSimulator({ receiptDelayMs: 20 })
          const { account } = yield* setupAccount({ providers: [{ kind: "smpp", config: smppConfig(sim.port) }] })
          const number = "+255700900900"
          yield* sql`INSERT INTO inbound_numbers (id, account_id, number, address_key, created_at, updated_at)
          VALUES (gen_random_uuid(), ${account.id}, ${number}, ${number.slice(1)}, now(), now())`
          const from = "255712399001"
          const parts = ["Habari, nimepata ujumbe wako ", "na nitakuja kesho asubuhi."]
          const mo = (seq: number) =>
            sim.sendMoPdu({
              source_addr: from,
              destination_addr: number.slice(1),
              esm_class: 0x40,
              short_message: { udh: Buffer.from([5, 0, 3, 42, 2, seq]), message: parts[seq - 1] }
            })
          const stored = () =>
            Effect.map(
              sql<{ n: number }>`SELECT count(*)::int AS n FROM inbound_messages WHERE from_addr = ${`+${from}`}`,
              (r) => r[0]!.n
            )

          // the first worker stores the message and is killed right away
          yield* Effect.scoped(Effect.gen(function*() {
            const first = yield* spawnWorker(url)
            yield* Effect.promise(() => sim.waitUntil(() => sim.sessionCount > 0, 60_000))
            // the answers are not awaited: as far as the carrier knows, they were lost with the worker
            void mo(1).catch(() => undefined)
            void mo(2).catch(() => undefined)
            while ((yield* stored()) === 0) yield* Effect.sleep("5 millis")
            yield* Effect.promise(() => kill(first))
          }))
          expect(yield* stored()).toBe(1)

          // the carrier binds to the next worker and sends both parts again
          yield* Effect.scoped(Effect.gen(function*() {
            yield* spawnWorker(url)
            yield* Effect.promise(() => sim.waitUntil(() => sim.sessionCount > 0, 60_000))
            expect(yield* Effect.promise(() => mo(2))).toBe(0)
            expect(yield* Effect.promise(() => mo(1))).toBe(0)
          }))
          const rows = yield* sql<{ text: string; parts: number; complete: boolean; account_id: string }>`
          SELECT text, parts, complete, account_id FROM inbound_messages WHERE from_addr = ${`+${from}`}`
          expect(rows).toEqual([{ text: parts.join(""), parts: 2, complete: true, account_id: account.id }])
        }).pipe(Effect.scoped, Effect.provide(baseStack(db)))
      }).pipe(Effect.scoped),
    180_000
  )
})

/**
 * A new embedded data directory is initialised in a child process (PgliteClient `initializeDataDir`):
 * initdb grows PGlite's WebAssembly memory to ≈700 MB that the process could never give back, so the
 * server opening a fresh directory would start at ≈750 MB instead of ≈180 MB.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { execFile } from "node:child_process"
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { initializeDataDir } from "../src/PgliteClient.js"

const FIXTURE = fileURLToPath(new URL("./fixtures/openDataDir.ts", import.meta.url))

const open = (dataDir: string) =>
  new Promise<{ one?: number; rssMb?: number; error?: string }>((resolve, reject) =>
    execFile(
      process.execPath,
      ["--conditions=@tuma/source", "--import", "tsx", FIXTURE, dataDir],
      { timeout: 120_000 },
      (error, stdout) => {
        const line = stdout.trim().split("\n").pop() ?? ""
        try {
          resolve(JSON.parse(line))
        } catch {
          reject(error ?? new Error(stdout))
        }
      }
    )
  )

describe("PGlite data directory initialisation", () => {
  it.live(
    "a fresh directory is created by a child process: the opening process stays small",
    () =>
      Effect.promise(async () => {
        const root = mkdtempSync(join(tmpdir(), "tuma-initdb-"))
        const dataDir = join(root, "data")
        try {
          const first = await open(dataDir)
          expect(first.one).toBe(1)
          expect(existsSync(join(dataDir, "PG_VERSION"))).toBe(true)
          // initdb in the same process leaves it at ≈750 MB; an initialised directory opens at ≈180 MB
          expect(first.rssMb).toBeLessThan(450)
          const again = await open(dataDir)
          expect(again.one).toBe(1)
          expect(again.rssMb).toBeLessThan(450)
        } finally {
          rmSync(root, { recursive: true, force: true })
        }
      }),
    180_000
  )

  it.live("a directory that cannot be created is a clear SqlError", () =>
    Effect.gen(function*() {
      const root = mkdtempSync(join(tmpdir(), "tuma-initdb-"))
      const file = join(root, "not-a-directory")
      writeFileSync(file, "x")
      const exit = yield* Effect.exit(initializeDataDir(join(file, "data")))
      rmSync(root, { recursive: true, force: true })
      expect(Exit.isFailure(exit)).toBe(true)
      if (Exit.isFailure(exit)) expect(String(exit.cause)).toContain("could not initialise")
    }), 120_000)
})

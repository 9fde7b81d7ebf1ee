/**
 * The `tuma` command and the audit log (issue 15), as real processes on a fresh embedded data
 * directory: a change made with `tuma` is recorded as done by `cli:<os user>`, and `tuma audit
 * [--actor --action --target --limit]` prints the entries (newest first, with the cursor of the
 * next page); a malformed filter exits 1 with the 422 by field.
 */
import { execFile } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, expect, it } from "vitest"
import { osUser } from "../src/cli/Cli.js"

const BIN = fileURLToPath(new URL("../src/bin.ts", import.meta.url))
const dataDir = mkdtempSync(join(tmpdir(), "tuma-audit-cli-"))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

const tuma = (...args: Array<string>) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      ["--conditions=@tuma/source", "--import", "tsx", BIN, ...args],
      { env: { ...process.env, TUMA_DATA_DIR: dataDir, DATABASE_URL: "" }, timeout: 120_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr })
    )
  })

/** The JSON a command printed (after any log lines). */
const json = (out: string) => JSON.parse(out.slice(out.search(/^[{[]/m)))

it("a tuma change is recorded for cli:<os user>; tuma audit prints it, filtered and paged", async () => {
  const created = await tuma("accounts", "create", "--name", "Cli Audit", "--email", "cli-audit@example.com")
  expect(created.code, created.stderr).toBe(0)
  const account = json(created.stdout)
  const uid: string = account.uid ?? account.account?.uid
  expect(uid).toMatch(/^[0-9a-f-]{36}$/)
  const suspended = await tuma("accounts", "suspend", uid)
  expect(suspended.code, suspended.stderr).toBe(0)

  // a credit correction: a ledger row recorded for the CLI; below 0 refused (exit 1, 422 on units)
  expect((await tuma("credits", "purchase", "--account", uid, "--country", "TZ", "--units", "100")).code).toBe(0)
  const fix = await tuma("credits", "correct", "--account", uid, "--country", "TZ", "--units=-40", "--reason", "typo")
  expect(fix.code, fix.stderr).toBe(0)
  expect(json(fix.stdout)).toMatchObject({ wallet: { balance: 60 }, entry: { kind: "adjustment", units: -40 } })
  const below = await tuma("credits", "correct", "--account", uid, "--country", "TZ", "--units=-61", "--reason", "x")
  expect(below.code).toBe(1)
  expect(Object.keys(json(below.stderr).errors)).toEqual(["units"])

  const actor = `cli:${osUser()}`
  const log = await tuma("audit", "--actor", actor, "--target", `account:${uid}`)
  expect(log.code, log.stderr).toBe(0)
  const page = json(log.stdout)
  expect(page.data.map((e: any) => [e.action, e.actor_kind, e.actor_name, e.ip])).toEqual([
    ["wallet.correct", "cli", actor, null],
    ["wallet.top_up", "cli", actor, null],
    ["account.suspend", "cli", actor, null],
    // the account's first owner is invited by the operator who created it
    ["portal.invitation.create", "cli", actor, null],
    ["account.create", "cli", actor, null]
  ])
  expect(page.data[0]).toMatchObject({ before: { balance: 100 }, after: { wallet: { balance: 60 } } })
  expect(page.data[2]).toMatchObject({ before: { active: true }, after: { active: false } })

  const one = json((await tuma("audit", "--action", "account.*", "--limit", "1")).stdout)
  expect(one.data.map((e: any) => e.action)).toEqual(["account.suspend"])
  expect(one.meta).toEqual({ limit: 1, next_before: one.data[0].id })

  const bad = await tuma("audit", "--limit", "0", "--from", "soon")
  expect(bad.code).toBe(1)
  expect(Object.keys(json(bad.stderr).errors).sort()).toEqual(["from", "limit"])
}, 420_000)

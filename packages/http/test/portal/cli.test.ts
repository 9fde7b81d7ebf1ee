/**
 * `tuma accounts create --owner-email …` as a real process on an embedded data directory: the
 * account is created, its owner's invitation is mailed to a real SMTP server, and the printed
 * `owner_invitation.link` is the mailed one. An invalid owner e-mail creates nothing.
 *
 * `tuma operator create|list` (the console's operators, issue 15; docs/console.md): the operator is
 * created without a password, the invitation mailed, the printed link is the mailed one; a bad
 * role or e-mail and a duplicate create nothing.
 */
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, expect, it } from "vitest"
import { linkFrom, startSmtp } from "./harness.js"

const BIN = fileURLToPath(new URL("../../src/bin.ts", import.meta.url))
const dataDir = mkdtempSync(join(tmpdir(), "tuma-portal-cli-"))
let smtp: Awaited<ReturnType<typeof startSmtp>>
beforeAll(async () => {
  smtp = await startSmtp()
})
afterAll(async () => {
  await smtp?.close()
  rmSync(dataDir, { recursive: true, force: true })
})

const tuma = (args: Array<string>) =>
  new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
    const child = spawn(process.execPath, ["--conditions=@tuma/source", "--import", "tsx", BIN, ...args], {
      env: {
        ...process.env,
        TUMA_DATA_DIR: dataDir,
        TUMA_SMTP_URL: `${smtp.url}?ignoreTLS=true`,
        TUMA_PUBLIC_URL: "https://sms.example.com"
      },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let out = ""
    let err = ""
    child.stdout.on("data", (d: Buffer) => void (out += d.toString()))
    child.stderr.on("data", (d: Buffer) => void (err += d.toString()))
    child.on("exit", (code) => resolve({ code, out, err }))
  })

it("accounts create invites the owner by e-mail", async () => {
  const bad = await tuma([
    "accounts",
    "create",
    "--name",
    "Bad Co",
    "--email",
    "bad@example.com",
    "--owner-email",
    "nope"
  ])
  expect(bad.code).toBe(1)
  expect(bad.err).toMatch(/owner_email/)
  const r = await tuma([
    "accounts",
    "create",
    "--name",
    "Duka Ltd",
    "--email",
    "duka@example.com",
    "--owner-email",
    "mmiliki@example.com"
  ])
  expect(r.code).toBe(0)
  const answer = JSON.parse(r.out)
  expect(answer.name).toBe("Duka Ltd")
  expect(answer.owner_invitation.email).toBe("mmiliki@example.com")
  const link = await linkFrom(smtp.mails, "mmiliki@example.com", "/portal/accept-invitation")
  expect(link.startsWith("https://sms.example.com/portal/accept-invitation?token=")).toBe(true)
  expect(answer.owner_invitation.link).toBe(link)
  const list = await tuma(["accounts", "list"])
  expect(JSON.parse(list.out).map((a: any) => a.name)).toEqual(["Duka Ltd"])
}, 120_000)

it("operator create invites by e-mail and list shows it; bad input and duplicates create nothing", async () => {
  const bad = await tuma(["operator", "create", "--email", "nope", "--role", "root"])
  expect(bad.code).toBe(1)
  expect(bad.err).toMatch(/email/)
  expect(bad.err).toMatch(/role/)
  const r = await tuma(["operator", "create", "--email", "Ana@Example.com", "--role", "reviewer", "--name", "Ana"])
  expect(r.code).toBe(0)
  const created = JSON.parse(r.out)
  expect(created).toMatchObject({ email: "ana@example.com", role: "reviewer", status: "invited", totp_enrolled: false })
  const link = await linkFrom(smtp.mails, "ana@example.com", "/console/accept-invitation")
  expect(link.startsWith("https://sms.example.com/console/accept-invitation?token=")).toBe(true)
  expect(created.invitation_link).toBe(link)
  const dup = await tuma(["operator", "create", "--email", "ana@example.com", "--role", "admin"])
  expect(dup.code).toBe(1)
  expect(dup.err).toMatch(/exists/)
  // (role, disable and enable are the same use cases: store-sql/test/operatorUsers.test.ts)
  const list = await tuma(["operator", "list"])
  expect(JSON.parse(list.out).map((o: any) => [o.email, o.role, o.status])).toEqual([
    ["ana@example.com", "reviewer", "invited"]
  ])
}, 300_000)

/**
 * The portal's browser tests run against a real `tuma serve --demo` child process (the README's
 * command) on PGlite (a fresh data directory) or PostgreSQL (a scratch database created and dropped
 * here, when TUMA_TEST_DATABASE_URL is set), its mail going to a real SMTP server (`smtp-server`),
 * driven by Debian's chromium through playwright-core. Controls are found by role and name only.
 */
import { Reactivity } from "@effect/experimental"
import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import { spawn } from "node:child_process"
import type { ChildProcess } from "node:child_process"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { Secret, TOTP } from "otpauth"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { chromium } from "playwright-core"
import { SMTPServer } from "smtp-server"

export const testDatabaseUrl = process.env.TUMA_TEST_DATABASE_URL
/**
 * The store the portal and console flows run on: PostgreSQL when configured (as CI does; what an
 * operator runs in production), else PGlite. Each flow runs once: what the store does is proven on
 * both drivers by the contract suites (packages/store-sql/test), and the walks of every page
 * (kiswahili, phone, contacts) run on PGlite, the README's embedded default.
 */
export const drivers: ReadonlyArray<"pglite" | "postgres"> = testDatabaseUrl ? ["postgres"] : ["pglite"]
export const ADMIN_TOKEN = "portal-test-admin-token"
export const CHROMIUM = process.env.TUMA_CHROMIUM ?? "/usr/bin/chromium"
export const hasChromium = existsSync(CHROMIUM)
// CI sets TUMA_REQUIRE_CHROMIUM=1: a browser that failed to install fails the run instead of
// silently skipping the browser suites.
if (!hasChromium && process.env.TUMA_REQUIRE_CHROMIUM === "1") {
  throw new Error(`TUMA_REQUIRE_CHROMIUM=1 but no browser at ${CHROMIUM} (apt-get install -y chromium)`)
}

const BIN = fileURLToPath(new URL("../../http/src/bin.ts", import.meta.url))
const ROOT = fileURLToPath(new URL("../../../", import.meta.url))

export interface Mail {
  readonly to: string
  readonly raw: string
}

const startSmtp = async () => {
  const mails: Array<Mail> = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      let raw = ""
      stream.on("data", (d: Buffer) => (raw += d.toString("utf8")))
      stream.on("end", () => {
        for (const r of session.envelope.rcptTo) mails.push({ to: r.address, raw })
        callback()
      })
    }
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.server.address() as AddressInfo).port
  return { url: `smtp://127.0.0.1:${port}`, mails, close: () => new Promise<void>((r) => server.close(() => r())) }
}

/** The quoted-printable soft breaks and escapes undone, enough to read links. */
const unfold = (raw: string) =>
  raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))

/** Waits for a mail to `to` holding a link to `path` (e.g. `/portal/accept-invitation`). */
export const linkIn = async (mails: ReadonlyArray<Mail>, to: string, path: string, timeoutMs = 20_000) => {
  const deadline = Date.now() + timeoutMs
  const re = new RegExp(`https?://[^\\s"'<>]*${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\?token=[A-Za-z0-9_%-]+`)
  while (Date.now() < deadline) {
    for (let i = mails.length - 1; i >= 0; i--) {
      if (mails[i].to.toLowerCase() !== to.toLowerCase()) continue
      const m = re.exec(unfold(mails[i].raw))
      if (m !== null) return m[0]
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`no mail to ${to} with a link to ${path} (mails: ${mails.map((m) => m.to).join(", ")})`)
}

const pgAdmin = (statement: string) =>
  Effect.runPromise(
    Effect.scoped(Effect.flatMap(
      PgClient.make({ url: Redacted.make(testDatabaseUrl!), maxConnections: 1 }),
      (sql) => sql.unsafe(statement)
    )).pipe(Effect.provide(Reactivity.layer))
  )

export interface Serve {
  readonly url: string
  readonly login: { readonly email: string; readonly password: string }
  readonly liveKey: string
  readonly mails: Array<Mail>
  readonly output: () => string
  readonly close: () => Promise<void>
}

/** `tuma serve --demo` on a fresh store; resolves once it listens. */
export const startServe = async (
  driver: "pglite" | "postgres",
  env: Record<string, string> = {}
): Promise<Serve> => {
  const smtp = await startSmtp()
  const dataDir = mkdtempSync(join(tmpdir(), "tuma-portal-"))
  let dbName: string | undefined
  let databaseUrl: string | undefined
  if (driver === "postgres") {
    dbName = `tuma_portal_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`
    await pgAdmin(`CREATE DATABASE ${dbName}`)
    const u = new URL(testDatabaseUrl!)
    u.pathname = `/${dbName}`
    databaseUrl = u.toString()
  }
  const childEnv: Record<string, string | undefined> = {
    ...process.env,
    TUMA_DATA_DIR: dataDir,
    PORT: "0",
    HOST: "127.0.0.1",
    TUMA_WORKERS: "1",
    TUMA_ADMIN_TOKEN: ADMIN_TOKEN,
    TUMA_SMTP_URL: smtp.url,
    TUMA_WEBHOOK_RETRY_DELAYS: "1s",
    TUMA_WEBHOOK_DISABLE_AFTER: "3",
    DATABASE_URL: databaseUrl ?? "",
    ...env
  }
  // `serve --demo` itself lets webhooks reach loopback receivers (the webhook tests rely on it)
  delete childEnv.TUMA_WEBHOOK_ALLOW
  const child: ChildProcess = spawn(process.execPath, [
    "--conditions=@tuma/source",
    "--import",
    "tsx",
    BIN,
    "serve",
    "--demo"
  ], {
    cwd: ROOT,
    env: childEnv,
    stdio: ["ignore", "pipe", "pipe"]
  })
  let out = ""
  const ready = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${out}`)), 120_000)
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString()
      const m = /listening on (http:\/\/\S+)/.exec(out)
      if (m) {
        clearTimeout(timer)
        resolve(m[1])
      }
    })
    child.stderr!.on("data", (d: Buffer) => void (out += d.toString()))
    child.once("exit", (code) => {
      clearTimeout(timer)
      reject(new Error(`serve exited ${code}: ${out}`))
    })
  })
  const cleanup = async () => {
    await smtp.close()
    rmSync(dataDir, { recursive: true, force: true })
    if (dbName !== undefined) await pgAdmin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined)
  }
  let url: string
  try {
    url = await ready
  } catch (e) {
    child.kill("SIGKILL")
    await cleanup()
    throw e
  }
  // the first /portal request builds the portal when its build is stale: do it before any page
  await fetch(`${url}/portal/`).then((r) => r.text()).catch(() => undefined)
  const login = /demo portal login: (\S+) (\S+)/.exec(out)
  const liveKey = /demo live key: (tuma_live_\w+)/.exec(out)?.[1]
  if (login === null || liveKey === undefined) {
    child.kill("SIGKILL")
    await cleanup()
    throw new Error(`serve --demo did not print the portal login and the live key: ${out}`)
  }
  return {
    url,
    login: { email: login[1], password: login[2] },
    liveKey,
    mails: smtp.mails,
    output: () => out,
    close: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r))
        child.kill("SIGTERM")
        await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))])
        if (child.exitCode === null) child.kill("SIGKILL")
      }
      await cleanup()
    }
  }
}

export const launchBrowser = (): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run"
    ]
  })

/** A phone's screen (CSS pixels), the size the phone layout is tested and pictured at. */
export const PHONE = { width: 390, height: 844 } as const

/** A fresh browser profile (cookies, localStorage) at the given size; `phone`: a touch screen of `PHONE`'s size. */
export const newContext = (
  browser: Browser,
  options: { readonly timezoneId?: string; readonly phone?: boolean } = {}
) =>
  browser.newContext({
    viewport: options.phone === true ? PHONE : { width: 1280, height: 900 },
    ...(options.phone === true ? { isMobile: true, hasTouch: true } : {}),
    locale: "en-GB",
    timezoneId: options.timezoneId ?? "Africa/Dar_es_Salaam"
  })

/** Signs in through the sign-in page and waits for the dashboard. */
export const signIn = async (page: Page, url: string, email: string, password: string) => {
  await page.goto(`${url}/portal/`)
  await page.getByRole("textbox", { name: "Email" }).fill(email)
  await page.getByLabel("Password").fill(password)
  await page.getByRole("button", { name: "Sign in" }).click()
  await page.getByRole("heading", { name: "Dashboard", level: 1 }).waitFor()
}

/**
 * The demo operator's first sign-in to the console (its login from `serve --demo`'s output): enrols
 * TOTP, acknowledges the recovery codes and waits for the overview. Answers the TOTP secret.
 */
export const enrolConsoleOperator = async (page: Page, serve: Serve) => {
  const [, email, password] = /demo console login: (\S+) (\S+)/.exec(serve.output())!
  await page.goto(`${serve.url}/console/`)
  await page.getByRole("textbox", { name: "Email" }).fill(email)
  await page.getByLabel("Password").fill(password)
  await page.getByRole("button", { name: "Sign in" }).click()
  const secret = await page.getByRole("textbox", { name: "Secret" }).inputValue()
  await page.getByRole("textbox", { name: "Authentication code" }).fill(
    new TOTP({ secret: Secret.fromBase32(secret) }).generate()
  )
  await page.getByRole("button", { name: "Sign in" }).click()
  await page.getByRole("button", { name: "I have saved them" }).click()
  await page.getByRole("heading", { name: "Overview", level: 1 }).waitFor()
  return secret
}

/** Clicks a link of the main navigation. */
export const go = async (page: Page, name: string) => {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true }).click()
  await page.getByRole("heading", { level: 1, name }).waitFor()
}

/** JSON over HTTP to the server (REST API with a key, or the admin API). */
export const http = async (
  url: string,
  method: string,
  path: string,
  options: { readonly bearer?: string; readonly body?: unknown; readonly headers?: Record<string, string> } = {}
) => {
  const r = await fetch(`${url}${path}`, {
    method,
    headers: {
      ...(options.bearer !== undefined ? { authorization: `Bearer ${options.bearer}` } : {}),
      ...(options.body !== undefined ? { "content-type": "application/json" } : {}),
      ...options.headers
    },
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {})
  })
  const text = await r.text()
  let body: any = undefined
  try {
    body = JSON.parse(text)
  } catch {
    body = text
  }
  return { status: r.status, headers: r.headers, body }
}

export type { Browser, BrowserContext, Page }

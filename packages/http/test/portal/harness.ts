/**
 * Portal test harness: a real `tuma` server on a loopback port (PGlite in memory, or a scratch
 * PostgreSQL database when TUMA_TEST_DATABASE_URL is set), its mail going to a real SMTP server
 * (`smtp-server`) that keeps what it receives, and `Agent`: a browser-like client with a cookie
 * jar that sends `Origin` and `X-CSRF-Token` the way the portal app does.
 */
import { PortalAccess } from "@tuma/core/portal/PortalAccess"
import type { PortalSettings } from "@tuma/core/portal/PortalConfig"
import { defaultPortalSettings } from "@tuma/core/portal/PortalConfig"
import { nativeScrypt, pureScrypt, Scrypt } from "@tuma/core/ports/Scrypt"
import { layerOutboxMailer, layerSmtpMailer } from "@tuma/providers/mail/SmtpMailer"
import * as Database from "@tuma/store-sql/Database"
import { Effect, Exit, Layer, Scope } from "effect"
import type { AddressInfo } from "node:net"
import { SMTPServer } from "smtp-server"
import { makeServerOptions } from "../../src/runtime/Config.js"
import * as DeliveryWorkers from "../../src/runtime/DeliveryWorkers.js"
import * as Server from "../../src/Server.js"
import { scratchDatabase, setupAccount, testDatabaseUrl, unique } from "../harness.js"
import type { AccountSetup, Overrides } from "../harness.js"

export const ADMIN_TOKEN = "portal-admin-token"
export const PASSWORD = "correct horse battery"

/** The drivers every portal test runs on. */
export const drivers: ReadonlyArray<"pglite" | "postgres"> = testDatabaseUrl ? ["pglite", "postgres"] : ["pglite"]

export interface Mail {
  readonly to: ReadonlyArray<string>
  readonly data: string
}

export const startSmtp = async () => {
  const mails: Array<Mail> = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, cb) {
      const chunks: Array<Buffer> = []
      stream.on("data", (c: Buffer) => chunks.push(c))
      stream.on("end", () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), data: Buffer.concat(chunks).toString("utf8") })
        cb()
      })
    }
  })
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()))
  const port = (server.server.address() as AddressInfo).port
  return { url: `smtp://127.0.0.1:${port}`, mails, close: () => new Promise<void>((r) => server.close(() => r())) }
}

/** The first link of a mail to `to` whose path contains `path`, waiting for it to arrive. */
export const linkFrom = async (mails: ReadonlyArray<Mail>, to: string, path: string): Promise<string> => {
  const deadline = Date.now() + 10_000
  while (Date.now() < deadline) {
    for (const m of [...mails].reverse()) {
      if (!m.to.includes(to)) continue
      // quoted-printable soft breaks and =3D
      const text = m.data.replace(/=\r?\n/g, "").replace(/=3D/g, "=")
      const match = new RegExp(`https?://\\S*${path}\\?token=[A-Za-z0-9_%-]+`).exec(text)
      if (match !== null) return match[0]
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`no mail to ${to} with ${path}`)
}

export interface PortalServer {
  readonly url: string
  readonly mails: Array<Mail>
  readonly run: <A, E>(effect: Effect.Effect<A, E, any>) => Promise<A>
  /** Starts the delivery workers in this process (they load the providers that exist now). */
  readonly startWorkers: () => Promise<void>
  /** Builds a layer over the server's services, torn down with the server. */
  readonly launch: (layer: Layer.Layer<never, never, any>) => Promise<void>
  readonly close: () => Promise<void>
}

export const startPortal = async (
  driver: "pglite" | "postgres",
  options: {
    readonly settings?: Partial<PortalSettings>
    readonly server?: Overrides
    /** `outbox`: no mail server, as without TUMA_SMTP_URL (mails kept in the outbox). Default: the SMTP sink. */
    readonly mail?: "smtp" | "outbox"
  } = {}
): Promise<PortalServer> => {
  const smtp = await startSmtp()
  const scope = Effect.runSync(Scope.make())
  const database = driver === "pglite"
    ? Database.pglite("memory://")
    : Database.postgres(
      await Effect.runPromise(Scope.extend(scratchDatabase, scope) as Effect.Effect<string, unknown>),
      { maxConnections: 10 }
    )
  const server = makeServerOptions({ port: 0, host: "127.0.0.1", adminToken: ADMIN_TOKEN, ...options.server })
  // Real scrypt at a test cost (N = 2^10): the portal's N = 2^15 takes 32 MB and 0.1–1 s of a core
  // per sign-in here, hundreds of times a run; what is stored and checked is unchanged.
  const derive = nativeScrypt ?? pureScrypt
  const testScrypt = Layer.succeed(Scrypt, {
    derive: (password, salt, params) => derive(password, salt, { ...params, N: 1024 })
  })
  const context = await Effect.runPromise(
    Layer.buildWithScope(
      Server.layer({
        server,
        database,
        portal: {
          settings: { ...defaultPortalSettings, ...options.settings },
          mailer: options.mail === "outbox" ? layerOutboxMailer : layerSmtpMailer({ url: smtp.url })
        }
      }).pipe(Layer.provideMerge(testScrypt)),
      scope
    )
  )
  const url = await Effect.runPromise(Effect.provide(Server.address, context))
  return {
    url,
    mails: smtp.mails,
    run: (effect) => Effect.runPromise(Effect.provide(effect, context) as Effect.Effect<any, any>),
    startWorkers: () =>
      Effect.runPromise(
        Layer.buildWithScope(
          DeliveryWorkers.layer({ pollIntervalMs: 100 }).pipe(Layer.provide(Layer.succeedContext(context))),
          scope
        )
      ).then(() => undefined),
    launch: (layer) =>
      Effect.runPromise(
        Layer.buildWithScope(layer.pipe(Layer.provide(Layer.succeedContext(context))), scope) as Effect.Effect<any>
      ).then(() => undefined),
    close: async () => {
      await Effect.runPromise(Scope.close(scope, Exit.void))
      await smtp.close()
    }
  }
}

/** An account ready to send (harness `setupAccount`) with a portal user of the given role. */
export const accountWithUser = (server: PortalServer, role: "owner" | "member" = "owner", setup: AccountSetup = {}) =>
  server.run(Effect.gen(function*() {
    const acct = yield* setupAccount(setup)
    const access = yield* PortalAccess
    const email = `${unique("u")}@example.com`
    const user = yield* access.ensureUser({ accountId: acct.account.id, email, password: PASSWORD, role })
    return { ...acct, email, userId: user.id }
  }))

export const addUser = (server: PortalServer, accountId: string, role: "owner" | "member") =>
  server.run(Effect.gen(function*() {
    const access = yield* PortalAccess
    const email = `${unique("u")}@example.com`
    const user = yield* access.ensureUser({ accountId, email, password: PASSWORD, role })
    return { email, userId: user.id }
  }))

export interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly body: any
  readonly text: string
}

/** A browser-like client: cookie jar, `Origin` on state changes, the CSRF token it was given. */
export class Agent {
  readonly cookies = new Map<string, string>()
  csrf: string | undefined = undefined
  constructor(readonly server: { readonly url: string }) {}

  async request(
    method: string,
    path: string,
    options: {
      readonly body?: unknown
      readonly form?: FormData
      readonly headers?: Record<string, string>
      /** Send `X-CSRF-Token` (default true). */
      readonly csrf?: boolean
      /** The `Origin` header: the server's own by default on state changes; null to omit. */
      readonly origin?: string | null
    } = {}
  ): Promise<Answer> {
    const headers: Record<string, string> = { ...options.headers }
    const changing = method !== "GET" && method !== "HEAD"
    if (changing) {
      const origin = options.origin === undefined ? this.server.url : options.origin
      if (origin !== null) headers.origin = origin
      if (options.csrf !== false && this.csrf !== undefined) headers["x-csrf-token"] = this.csrf
    }
    if (this.cookies.size > 0) {
      headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ")
    }
    let body: any = undefined
    if (options.body !== undefined) {
      body = JSON.stringify(options.body)
      headers["content-type"] = "application/json"
    } else if (options.form !== undefined) body = options.form
    const res = await fetch(this.server.url + path, { method, headers, body })
    for (const c of res.headers.getSetCookie()) {
      const [pair, ...attrs] = c.split(";")
      const i = pair.indexOf("=")
      const name = pair.slice(0, i).trim()
      const value = pair.slice(i + 1).trim()
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === ""
      if (expired) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    const text = await res.text()
    let parsed: any = undefined
    try {
      parsed = JSON.parse(text)
    } catch {
      parsed = undefined
    }
    return { status: res.status, headers: res.headers, body: parsed, text }
  }

  /** GET the pre-session token (sets the CSRF cookie). */
  async preSession() {
    const r = await this.request("GET", "/portal/api/session/csrf")
    this.csrf = r.body.data.csrf_token
    return r
  }

  async signIn(email: string, password = PASSWORD) {
    await this.preSession()
    const r = await this.request("POST", "/portal/api/session", { body: { email, password } })
    if (r.status === 200 && r.body.data.csrf_token !== undefined) this.csrf = r.body.data.csrf_token
    return r
  }

  get = (path: string) => this.request("GET", path)
  post = (path: string, body?: unknown) => this.request("POST", path, body === undefined ? {} : { body })
  patch = (path: string, body?: unknown) => this.request("PATCH", path, body === undefined ? {} : { body })
  del = (path: string) => this.request("DELETE", path)
}

export const signedIn = async (server: { readonly url: string }, email: string) => {
  const agent = new Agent(server)
  const r = await agent.signIn(email)
  if (r.status !== 200) throw new Error(`sign-in failed: ${r.status} ${r.text}`)
  return agent
}

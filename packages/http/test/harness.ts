/**
 * Black-box test harness: a real server on a random loopback port over an in-memory PGlite store
 * (or a scratch PostgreSQL database), one per test file. Requests go over the socket with `fetch`
 * or the typed client; set-up goes through the same `Operator` service the CLI and admin API use.
 */
import * as Reactivity from "@effect/experimental/Reactivity"
import { FetchHttpClient, HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Operator } from "@tuma/core"
import * as Database from "@tuma/store-sql/Database"
import type { Context } from "effect"
import { Effect, Exit, Layer, Redacted, Scope } from "effect"
import { randomBytes } from "node:crypto"
import { TumaApi } from "../src/Api.js"
import type { ServerOptions } from "../src/runtime/Config.js"
import { makeServerOptions } from "../src/runtime/Config.js"
import * as Server from "../src/Server.js"
import { AuthCache } from "../src/shared/Auth.js"

export const testDatabaseUrl = process.env.TUMA_TEST_DATABASE_URL

/** A fresh PostgreSQL database (dropped when the scope closes). */
export const scratchDatabase = Effect.gen(function*() {
  const adminUrl = testDatabaseUrl!
  const name = `tuma_http_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`
  const admin = yield* PgClient.make({ url: Redacted.make(adminUrl), maxConnections: 1 }).pipe(
    Effect.provide(Reactivity.layer)
  )
  yield* Effect.acquireRelease(
    admin.unsafe(`CREATE DATABASE ${name}`),
    () => admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).pipe(Effect.orDie)
  )
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return url.toString()
})

export type Overrides = Parameters<typeof makeServerOptions>[0]

export interface TestServer {
  readonly url: string
  readonly options: ServerOptions
  readonly context: Context.Context<any>
  /** Runs an effect against the server's services (Operator, SqlClient, …). */
  readonly run: <A, E>(effect: Effect.Effect<A, E, any>) => Promise<A>
  readonly close: () => Promise<void>
}

export const startServer = async (
  overrides: Overrides = {},
  database: Database.DatabaseConfig = Database.pglite("memory://"),
  outer?: Scope.CloseableScope
): Promise<TestServer> => {
  const scope = outer ?? Effect.runSync(Scope.make())
  const options = makeServerOptions({ port: 0, host: "127.0.0.1", ...overrides })
  const context = await Effect.runPromise(Layer.buildWithScope(Server.layer({ server: options, database }), scope))
  const url = await Effect.runPromise(Effect.provide(Server.address, context))
  return {
    url,
    options,
    context,
    run: (effect) => Effect.runPromise(Effect.provide(effect, context) as Effect.Effect<any, any>),
    close: () => Effect.runPromise(Scope.close(scope, Exit.void))
  }
}

/** A server on a scratch PostgreSQL database (requires TUMA_TEST_DATABASE_URL). */
export const startServerOnPostgres = async (overrides: Overrides = {}) => {
  const scope = Effect.runSync(Scope.make())
  const url = await Effect.runPromise(Scope.extend(scratchDatabase, scope) as Effect.Effect<string, unknown>)
  const server = await startServer(overrides, Database.postgres(url, { maxConnections: 10 }), scope)
  return { ...server, databaseUrl: url }
}

let counter = 0
export const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${(counter++).toString(36)}`

export interface AccountSetup {
  readonly balances?: Record<string, number>
  readonly routes?: ReadonlyArray<string>
  readonly sender?: string | null
  readonly providerCredit?: Record<string, number> | null
  readonly scopes?: ReadonlyArray<string>
  readonly allowedIps?: ReadonlyArray<string>
  readonly expiresAt?: Date
}

/** An account ready to send (every check of spec §1 passes) with a live and a sandbox key. */
export const setupAccount = (setup: AccountSetup = {}) =>
  Effect.gen(function*() {
    const op = yield* Operator
    const balances = setup.balances ?? { TZ: 1000 }
    const routes = setup.routes ?? Object.keys(balances)
    const account = yield* op.createAccount({
      name: "Test Co",
      email: `${unique("a")}@example.com`,
      phone: "+255712000000",
      phoneVerified: true
    })
    const keyOptions = {
      accountId: account.id,
      ...(setup.scopes !== undefined ? { scopes: setup.scopes } : {}),
      ...(setup.allowedIps !== undefined ? { allowedIps: setup.allowedIps } : {}),
      ...(setup.expiresAt !== undefined ? { expiresAt: setup.expiresAt } : {})
    }
    const live = yield* op.issueApiKey({ ...keyOptions, mode: "live" })
    const sandbox = yield* op.issueApiKey({ ...keyOptions, mode: "test" })
    for (const [country, units] of Object.entries(balances)) {
      if (units > 0) {
        yield* op.purchaseCredits({ accountId: account.id, country, units, amount: "1.00", currency: "TZS" })
      }
    }
    for (const country of routes) {
      yield* op.verifyRoute({ accountId: account.id, country, phone: "+255712000000" })
      if (setup.sender !== null) {
        yield* op.grantSenderId({ accountId: account.id, senderId: setup.sender ?? "TUMA", country })
      }
    }
    if (setup.providerCredit !== null) {
      const credit = setup.providerCredit ?? Object.fromEntries(routes.map((c) => [c, 1_000_000]))
      if (Object.keys(credit).length > 0) {
        yield* op.addProvider({
          name: unique("p"),
          routes: Object.entries(credit).map(([country, c]) => ({ country, credit: c }))
        })
      }
    }
    return { account, live: live.key, liveId: live.id, sandbox: sandbox.key, sandboxId: sandbox.id }
  })

/** Test-only: revoke a key directly in the store. */
export const revokeKey = (keyId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`UPDATE api_keys SET revoked_at = now() WHERE id = ${keyId}`
    const cache = yield* AuthCache
    yield* cache.invalidate
  })

export interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly body: any
  readonly text: string
}

/** One request over the socket; the body is parsed as JSON when it is JSON. */
export const call = async (
  server: { readonly url: string },
  method: string,
  path: string,
  options: {
    readonly key?: string
    readonly body?: unknown
    readonly raw?: string | Uint8Array | FormData
    readonly headers?: Record<string, string>
  } = {}
): Promise<Answer> => {
  const headers: Record<string, string> = { ...options.headers }
  if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`
  let body: any = undefined
  if (options.body !== undefined) {
    body = JSON.stringify(options.body)
    headers["content-type"] ??= "application/json"
  } else if (options.raw !== undefined) body = options.raw
  const res = await fetch(server.url + path, { method, headers, body })
  const text = await res.text()
  let parsed: any = undefined
  try {
    parsed = JSON.parse(text)
  } catch {
    parsed = undefined
  }
  return { status: res.status, headers: res.headers, body: parsed, text }
}

/** The typed client of the contract, for a key. */
export const client = (server: { readonly url: string }, key?: string) =>
  HttpApiClient.make(TumaApi, {
    baseUrl: server.url,
    transformClient: (c) => key === undefined ? c : HttpClient.mapRequest(c, HttpClientRequest.bearerToken(key))
  }).pipe(Effect.provide(FetchHttpClient.layer))

/** decisions §29: a 422's `message` starts with the first field error's text (then "(and N more errors)"). */
export const expectFirstFieldErrorMessage = (answer: Answer) => {
  const first = Object.values(answer.body.errors as Record<string, Array<string>>).flat()[0]
  if (typeof first !== "string" || !answer.body.message.startsWith(first)) {
    throw new Error(
      `422 message ${JSON.stringify(answer.body.message)} does not start with the first field error ${
        JSON.stringify(first)
      }`
    )
  }
  if (answer.body.message === "The given data was invalid.") throw new Error("generic 422 message")
}

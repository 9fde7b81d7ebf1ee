/**
 * A whole Tuma for the observability tests, assembled as `tuma serve` assembles it: the store, an
 * account with a live and a sandbox key, an SMPP provider (the SMSC simulator, receipts after
 * `receiptDelayMs`), the HTTP server with its delivery workers, the webhook workers posting to a
 * local receiver, and the observability options under test.
 */
import { Operator } from "@tuma/core"
import { WebhookAdmin } from "@tuma/core/webhooks/WebhookAdmin"
import { makeSmscSimulator } from "@tuma/providers/smsc/SmscSimulator"
import * as Database from "@tuma/store-sql/Database"
import { Context, Effect, Exit, Layer, Scope } from "effect"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { parseLevel } from "../src/observability/Logger.js"
import * as Observability from "../src/observability/Observability.js"
import { makeServerOptions } from "../src/runtime/Config.js"
import * as WebhookWorkers from "../src/runtime/WebhookWorkers.js"
import * as Server from "../src/Server.js"
import { scratchDatabase, setupAccount, unique } from "./harness.js"

export interface Drivers {
  readonly name: string
  readonly database: Effect.Effect<Database.DatabaseConfig, unknown, Scope.Scope>
}

/** PGlite always; PostgreSQL when TUMA_TEST_DATABASE_URL is set. */
export const drivers: ReadonlyArray<Drivers> = [
  { name: "PGlite", database: Effect.succeed(Database.pglite("memory://")) },
  ...(process.env.TUMA_TEST_DATABASE_URL
    ? [{
      name: "PostgreSQL",
      database: Effect.map(scratchDatabase, (url) => Database.postgres(url, { maxConnections: 10 }))
    }]
    : [])
]

export interface Received {
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly body: string
}

export interface Tuma {
  readonly url: string
  readonly metricsUrl: string | undefined
  readonly key: string
  readonly keyId: string
  readonly sandbox: string
  readonly accountId: string
  readonly providerName: string
  readonly webhookSecret: string
  readonly webhooks: Array<Received>
  readonly run: <A, E>(effect: Effect.Effect<A, E, any>) => Promise<A>
  readonly close: () => Promise<void>
}

export const startTuma = async (options: {
  readonly database: Effect.Effect<Database.DatabaseConfig, unknown, Scope.Scope>
  readonly observability: Observability.ObservabilityOptions
  readonly accessLog?: boolean
  readonly adminToken?: string
}): Promise<Tuma> => {
  // the local receiver is on loopback: the operator allow-list permits it (registration and delivery
  // read it when their layers are built)
  process.env.TUMA_WEBHOOK_ALLOW = "127.0.0.1"
  const scope = Effect.runSync(Scope.make())
  const run = <A, E>(eff: Effect.Effect<A, E, Scope.Scope>) =>
    Effect.runPromise(Scope.extend(eff, scope) as Effect.Effect<A, unknown>)
  const webhooks: Array<Received> = []
  const receiver = createServer((req, res) => {
    let body = ""
    req.on("data", (d: Buffer) => (body += d.toString()))
    req.on("end", () => {
      webhooks.push({ headers: req.headers, body })
      res.writeHead(200).end("ok")
    })
  })
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()))
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`
  try {
    const database = await run(options.database)
    const sim = await run(makeSmscSimulator({ receiptDelayMs: 50 }))
    const observability = Context.get(
      await run(Layer.build(Observability.layerProcess(options.observability))),
      Observability.ObservabilityRuntime
    )
    const fiber = Observability.layerFiber(observability)
    const store = await run(Layer.build(Server.layerStore(database).pipe(Layer.provide(fiber))))
    const provide = <A, E>(eff: Effect.Effect<A, E, any>) =>
      Effect.runPromise(Effect.provide(eff, store) as Effect.Effect<A, unknown>)
    const acct = await provide(setupAccount({ balances: { TZ: 1000 }, providerCredit: null }))
    const providerName = unique("smsc")
    await provide(Effect.flatMap(Operator, (op) =>
      op.addProvider({
        name: providerName,
        kind: "smpp",
        config: { host: "127.0.0.1", port: sim.port, systemId: "tuma", password: "secret" },
        routes: [{ country: "TZ", credit: 5000 }]
      })))
    const { secret } = await provide(
      Effect.flatMap(
        WebhookAdmin,
        (w) => w.createEndpoint({ apiKeyId: acct.liveId, url: receiverUrl })
      )
    )
    const server = makeServerOptions({
      port: 0,
      host: "127.0.0.1",
      accessLog: options.accessLog ?? false,
      adminToken: options.adminToken
    })
    const context = await run(Layer.build(
      Server.layer({
        server,
        database,
        workers: true,
        store: Layer.succeedContext(store),
        observabilityRuntime: observability
      })
    ))
    await run(Layer.build(
      WebhookWorkers.layer({}).pipe(
        Layer.provide(Layer.succeedContext(store)),
        Layer.provide(fiber)
      )
    ))
    const url = await Effect.runPromise(Effect.provide(Server.address, context))
    delete process.env.TUMA_WEBHOOK_ALLOW
    return {
      url,
      metricsUrl: observability.metricsUrl,
      key: acct.live,
      keyId: acct.liveId,
      sandbox: acct.sandbox,
      accountId: acct.account.id,
      providerName,
      webhookSecret: secret,
      webhooks,
      run: provide,
      close: async () => {
        await Effect.runPromise(Scope.close(scope, Exit.void))
        await new Promise<void>((r) => receiver.close(() => r()))
      }
    }
  } catch (e) {
    delete process.env.TUMA_WEBHOOK_ALLOW
    await Effect.runPromise(Scope.close(scope, Exit.void))
    receiver.close()
    throw e
  }
}

/** Polls until `f` answers something other than undefined. */
export const eventually = async <A>(f: () => Promise<A | undefined>, what: string, ms = 30_000): Promise<A> => {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    const a = await f()
    if (a !== undefined) return a
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`timed out waiting for ${what}`)
}

export interface Sample {
  readonly name: string
  readonly labels: Record<string, string>
  readonly value: number
}

/** Samples of a Prometheus text exposition. */
export const parseExposition = (text: string): Array<Sample> => {
  const out: Array<Sample> = []
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (m === null) throw new Error(`not an exposition line: ${line}`)
    const labels: Record<string, string> = {}
    if (m[2] !== undefined) {
      for (const l of m[2].matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!
    }
    out.push({ name: m[1]!, labels, value: m[3] === "+Inf" ? Infinity : Number(m[3]) })
  }
  return out
}

export const scrape = async (metricsUrl: string) => {
  const res = await fetch(metricsUrl)
  if (res.status !== 200) throw new Error(`scrape answered ${res.status}`)
  const text = await res.text()
  return { text, samples: parseExposition(text), contentType: res.headers.get("content-type") }
}

/** The value of one series (0 when absent). */
export const valueOf = (samples: ReadonlyArray<Sample>, name: string, labels: Record<string, string> = {}) =>
  samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((n, s) => n + s.value, 0)

export const defaultObservability = (
  overrides: Partial<Observability.ObservabilityOptions> = {}
): Observability.ObservabilityOptions => ({
  metrics: { port: 0, host: "127.0.0.1" },
  tracing: { endpoint: undefined, serviceName: "tuma-test" },
  log: { format: "json", level: parseLevel("info"), sink: () => {} },
  ...overrides
})

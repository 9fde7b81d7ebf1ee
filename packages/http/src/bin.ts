#!/usr/bin/env node
/**
 * The `tuma` command.
 *
 *   tuma serve [--port N] [--host H] [--data-dir DIR] [--demo [--demo-webhook URL]]
 *              [--webhook-signature-header NAME] [--workers N|auto]
 *              [--smpp-port N] [--smpp-tls-port N] [--smpp-host H]
 *                                  HTTP server + delivery workers + webhook workers
 *                                  (--workers: N HTTP processes on one port, PostgreSQL only; Cluster.ts)
 *   tuma worker [--data-dir DIR] [--webhook-signature-header NAME]
 *                                  (delivery + inbound + webhook workers, no HTTP; runtime/Worker.ts)
 *   tuma <operator command> …      (see `tuma help`)
 *
 * Configuration from flags and environment: PORT, HOST, DATABASE_URL (PostgreSQL; otherwise the
 * embedded database in TUMA_DATA_DIR, default ./.tuma/data), TUMA_ADMIN_TOKEN,
 * TUMA_RATE_LIMIT_PER_MINUTE, TUMA_AUTH_MISSING_SCOPE_STATUS (401|403), TUMA_TRUSTED_PROXIES
 * (comma-separated CIDRs), TUMA_AUTH_CACHE_MS, TUMA_WORKERS=0 (serve without delivery workers).
 * Webhooks: TUMA_WEBHOOK_*, TUMA_SMTP_URL, TUMA_SYSTEM_ACCOUNT_ID, … (WebhookWorkers.ts, docs/webhooks.md).
 * Portal: TUMA_PUBLIC_URL, TUMA_PORTAL_ORIGINS, TUMA_PORTAL_SESSION_IDLE_MS, TUMA_PORTAL_SESSION_ABSOLUTE_MS
 * (docs/operations.md).
 * SMPP server (docs/smpp.md): --smpp-port / TUMA_SMPP_PORT, --smpp-tls-port / TUMA_SMPP_TLS_PORT with
 * TUMA_SMPP_TLS_CERT / TUMA_SMPP_TLS_KEY (PEM files), --smpp-host / TUMA_SMPP_HOST (127.0.0.1),
 * TUMA_SMPP_RECEIPT_HOLD_HOURS (72), TUMA_SMPP_PUBLIC_HOST (the host name the portal tells customers).
 * Observability (docs/observability.md): --metrics-port / TUMA_METRICS_PORT, TUMA_METRICS_HOST,
 * OTEL_EXPORTER_OTLP_ENDPOINT, TUMA_LOG_FORMAT=json|pretty, TUMA_LOG_LEVEL.
 *
 * `serve` and `worker` first set V8's heap growing factor (Heap.ts, `TUMA_HEAP_GROWING_PERCENT`) and
 * start the idle compaction of their heap (IdleCompaction.ts, `TUMA_IDLE_COMPACT_MB`).
 */
import { Database } from "@tuma/store-sql"
import { Context, Effect, Exit, Layer, Option, Scheduler, Scope } from "effect"
import cluster from "node:cluster"
import { readFileSync } from "node:fs"
import { createServer } from "node:http"
import { parseArgs } from "node:util"
import * as Cli from "./cli/Cli.js"
import { DEMO_NUMBER, seedDemo } from "./cli/Demo.js"
import { seedDemoOperator } from "./console/Demo.js"
import * as Observability from "./observability/Observability.js"
import { seedDemoPortalUser } from "./portal/Demo.js"
import * as Cluster from "./runtime/Cluster.js"
import { makeServerOptions } from "./runtime/Config.js"
import { trackConnections } from "./runtime/Drain.js"
import { tuneHeap } from "./runtime/Heap.js"
import * as IdleCompaction from "./runtime/IdleCompaction.js"
import { SlicedScheduler } from "./runtime/Scheduling.js"
import * as WebhookWorkers from "./runtime/WebhookWorkers.js"
import * as Worker from "./runtime/Worker.js"
import * as Server from "./Server.js"
import { seedDemoSmpp } from "./smpp/Demo.js"
import { SmppListener } from "./smpp/Listener.js"

const env = process.env

const intOr = (v: string | undefined, fallback: number | undefined) => {
  if (v === undefined || v === "") return fallback
  const n = Number(v)
  if (!Number.isInteger(n) || n < 0) throw new Error(`not a non-negative integer: ${v}`)
  return n
}

/**
 * The fiber scheduler of the whole process: time slices with the event loop polled between them
 * (Scheduling.ts), `TUMA_SLICE_MS` long (4); `TUMA_SCHEDULER=default` restores Effect's own (for A/B runs).
 */
const scheduler = env.TUMA_SCHEDULER === "default"
  ? Scheduler.defaultScheduler
  : new SlicedScheduler(intOr(env.TUMA_SLICE_MS, undefined))

/** `Effect.runPromise` on the process's scheduler: every fiber forked inside inherits it. */
const run = <A, E>(effect: Effect.Effect<A, E>): Promise<A> =>
  Effect.runPromise(Effect.withScheduler(effect, scheduler))

/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

/** `--webhook-signature-header NAME` (decisions §27): the flag wins over TUMA_WEBHOOK_SIGNATURE_HEADER. */
const setSignatureHeader = (name: string | undefined) => {
  if (name === undefined) return
  if (!HEADER_NAME.test(name)) throw new Error(`--webhook-signature-header: not an HTTP header name: ${name}`)
  env.TUMA_WEBHOOK_SIGNATURE_HEADER = name
}

/**
 * The SMPP listener's options from `--smpp-port` / `TUMA_SMPP_PORT` and `--smpp-tls-port` /
 * `TUMA_SMPP_TLS_PORT` (neither: no listener), `--smpp-host`, the TLS certificate and key from the files
 * named by `TUMA_SMPP_TLS_CERT` / `TUMA_SMPP_TLS_KEY`.
 */
const smppOptions = (values: {
  readonly port: string | undefined
  readonly host: string | undefined
  readonly tlsPort: string | undefined
}) => {
  const smppPort = intOr(values.port ?? env.TUMA_SMPP_PORT, undefined)
  const tlsPort = intOr(values.tlsPort ?? env.TUMA_SMPP_TLS_PORT, undefined)
  if (smppPort === undefined && tlsPort === undefined) return undefined
  const tls = tlsPort === undefined ? undefined : (() => {
    const certFile = env.TUMA_SMPP_TLS_CERT
    const keyFile = env.TUMA_SMPP_TLS_KEY
    if (certFile === undefined || keyFile === undefined) {
      throw new Error("--smpp-tls-port needs TUMA_SMPP_TLS_CERT and TUMA_SMPP_TLS_KEY (PEM files)")
    }
    return { port: tlsPort, cert: readFileSync(certFile), key: readFileSync(keyFile) }
  })()
  return {
    port: smppPort,
    host: values.host ?? env.TUMA_SMPP_HOST ?? "127.0.0.1",
    publicHost: env.TUMA_SMPP_PUBLIC_HOST,
    receiptHoldHours: intOr(env.TUMA_SMPP_RECEIPT_HOLD_HOURS, undefined),
    tls
  }
}

/** `HOST:PORT` of the built server's SMPP listener, if it has one. */
const smppAddress = <R>(context: Context.Context<R>) => {
  const listener = Context.getOption(Context.unsafeMake<SmppListener>(context.unsafeMap), SmppListener)
  if (Option.isNone(listener)) return undefined
  const { host, port, tlsPort } = listener.value
  return [port === undefined ? [] : [`${host}:${port}`], tlsPort === undefined ? [] : [`${host}:${tlsPort} (tls)`]]
    .flat().join(", ")
}

/** Prints `smpp listening on HOST:PORT` when the built server has an SMPP listener. */
const announceSmpp = <R>(context: Context.Context<R>) => {
  const address = smppAddress(context)
  if (address !== undefined) console.log(`smpp listening on ${address}`)
}

/** `--demo`: seeds the demo account (and its logins) and prints them. */
const printDemo = async (
  store: Context.Context<Layer.Layer.Success<ReturnType<typeof Server.layerStore>>>,
  options: { readonly webhook: string | undefined; readonly smpp: boolean }
) => {
  const keys = await run(Effect.provide(seedDemo, store))
  if (keys !== undefined) {
    console.log(`demo live key: ${keys.liveKey}`)
    console.log(`demo sandbox key: ${keys.sandboxKey}`)
    console.log(`demo number: ${DEMO_NUMBER} (send from it to +255700000500: the handset replies a second later)`)
  } else {
    console.log("demo: the store already has an account; its keys were printed when it was created")
  }
  const login = await run(Effect.provide(seedDemoPortalUser, store))
  if (login !== undefined) console.log(`demo portal login: ${login.email} ${login.password}`)
  if (options.smpp) {
    const smppLogin = await run(Effect.provide(seedDemoSmpp, store))
    if (smppLogin !== undefined) console.log(`demo smpp login: ${smppLogin.systemId} ${smppLogin.password}`)
  }
  const operator = await run(Effect.provide(seedDemoOperator, store))
  if (operator !== undefined) console.log(`demo console login: ${operator.email} ${operator.password}`)
  if (options.webhook !== undefined) {
    const { created, secret } = await run(Effect.provide(WebhookWorkers.registerDemoWebhook(options.webhook), store))
    // a restart keeps the endpoint and its secret (the receiver started with it keeps working)
    console.log(`demo webhook secret: ${secret}${created ? "" : " (kept from the previous start)"}`)
  }
}

const serve = async (argv: ReadonlyArray<string>) => {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      port: { type: "string" },
      host: { type: "string" },
      "data-dir": { type: "string" },
      demo: { type: "boolean", default: false },
      "demo-webhook": { type: "string" },
      "webhook-signature-header": { type: "string" },
      "metrics-port": { type: "string" },
      workers: { type: "string" },
      "smpp-port": { type: "string" },
      "smpp-host": { type: "string" },
      "smpp-tls-port": { type: "string" }
    },
    strict: true
  })
  if (values["data-dir"] !== undefined) env.TUMA_DATA_DIR = values["data-dir"]
  setSignatureHeader(values["webhook-signature-header"])
  const database = Cli.databaseFromEnv()
  const smpp = smppOptions({
    port: values["smpp-port"],
    host: values["smpp-host"],
    tlsPort: values["smpp-tls-port"]
  })
  const processes = Cluster.parseWorkers(values.workers ?? env.TUMA_HTTP_WORKERS)
  const refused = Cluster.refusal(processes, database)
  if (refused !== undefined) throw new Error(refused)
  if (processes > 1 && cluster.isPrimary) {
    const options = Observability.optionsFromEnv(env, { metricsPort: values["metrics-port"] })
    await Cluster.runPrimary({ workers: processes, metrics: options.metrics })
    console.log("stopped")
    process.exit(0)
  }
  // in a worker of --workers N: only the first seeds the demo (the others start after it listens)
  const role = Cluster.workerRole(env)
  const seeds = role === undefined || role.first
  // the operator named the demo webhook: its addresses join this process's allow-list
  if (values.demo) WebhookWorkers.allowDemoLoopback()
  if (values.demo && values["demo-webhook"] !== undefined) await WebhookWorkers.allowDemoWebhook(values["demo-webhook"])
  const server = makeServerOptions({
    port: intOr(values.port ?? env.PORT, 3000),
    host: values.host ?? env.HOST ?? "127.0.0.1",
    adminToken: env.TUMA_ADMIN_TOKEN,
    auth: {
      missingScopeStatus: env.TUMA_AUTH_MISSING_SCOPE_STATUS === "403" ? 403 : 401,
      cacheTtlMillis: intOr(env.TUMA_AUTH_CACHE_MS, undefined),
      trustedProxies: (env.TUMA_TRUSTED_PROXIES ?? "").split(",").map((s) => s.trim()).filter((s) => s !== "")
    },
    rateLimit: { limit: intOr(env.TUMA_RATE_LIMIT_PER_MINUTE, undefined) },
    maxUploadBytes: intOr(env.TUMA_MAX_UPLOAD_BYTES, undefined),
    maxConcurrentUploadsPerKey: intOr(env.TUMA_UPLOADS_PER_KEY, undefined),
    accessLog: env.TUMA_ACCESS_LOG === "1",
    fastSend: env.TUMA_FAST_SEND !== "0"
  })
  const nodeServer = createServer({ keepAliveTimeout: 65_000 })
  const connections = trackConnections(nodeServer)
  const obs = Observability.optionsFromEnv(env, { metricsPort: values["metrics-port"] })
  const scope = Effect.runSync(Scope.make())
  const close = (exit: Exit.Exit<unknown, unknown>) => run(Scope.close(scope, exit))
  try {
    // the process-wide metrics listener and tracer provider; every build below runs with their fiber layer
    const observability = await startObservability(obs, scope)
    const fiber = Observability.layerFiber(observability)
    // the store first: the demo account (and its provider) must exist before the workers load providers
    const store = await run(
      Layer.buildWithScope(Server.layerStore(database).pipe(Layer.provide(fiber)), scope)
    )
    if (values.demo && seeds) await printDemo(store, { webhook: values["demo-webhook"], smpp: smpp !== undefined })
    const context = await run(
      Layer.buildWithScope(
        Server.layer({
          server,
          database,
          nodeServer,
          workers: env.TUMA_WORKERS !== "0",
          store: Layer.succeedContext(store),
          observabilityRuntime: observability,
          smpp
        }),
        scope
      )
    )
    if (env.TUMA_WORKERS !== "0") {
      const systemAccountId = env.TUMA_SYSTEM_ACCOUNT_ID ||
        (values.demo ? await run(Effect.provide(WebhookWorkers.demoAccountId, store)) : undefined)
      await run(
        Layer.buildWithScope(
          WebhookWorkers.layer({ systemAccountId }).pipe(
            Layer.provide(Layer.succeedContext(store)),
            Layer.provide(fiber)
          ),
          scope
        )
      )
    }
    const url = await run(Effect.provide(Server.address, context))
    if (role !== undefined) {
      // the primary announces the server once every process listens, and merges the metrics
      if (observability.metricsUrl !== undefined) Cluster.tell({ tuma: "metrics", url: observability.metricsUrl })
      Cluster.tell({ tuma: "listening", url, smpp: smppAddress(context) })
    } else {
      console.log(`listening on ${url}`)
      console.log(`portal: ${url}/portal`)
      announceSmpp(context)
      if (observability.metricsUrl !== undefined) console.log(`metrics on ${observability.metricsUrl}`)
    }
  } catch (error) {
    await close(Exit.void)
    throw error
  }

  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    console.log(
      `${signal}: stopping (no new connections, finishing ${connections.inFlight()} in-flight requests` +
        ` on ${connections.connections()} connections)`
    )
    // every request received gets its answer (with Connection: close); 10 s bound (Drain.ts)
    const drained = await connections.drain({ deadlineMs: 10_000 })
    console.log(
      `${signal}: connections drained in ${drained.elapsedMs} ms (${drained.idleClosed} idle closed, ` +
        `${drained.forced} cut at the 10 s bound)`
    )
    await close(Exit.void)
    console.log("stopped")
    process.exit(0)
  }
  process.on("SIGINT", () => void stop("SIGINT"))
  process.on("SIGTERM", () => void stop("SIGTERM"))
}

/** The process-wide observability parts, built in `scope`. */
const startObservability = async (options: Observability.ObservabilityOptions, scope: Scope.Scope) =>
  Context.get(
    await run(Layer.buildWithScope(Observability.layerProcess(options), scope)),
    Observability.ObservabilityRuntime
  )

/**
 * `tuma worker`: the delivery workers (with the inbound housekeeping of a process that receives MO)
 * and the webhook workers, without the HTTP server (docs/delivery.md).
 */
const worker = async (argv: ReadonlyArray<string>) => {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      "data-dir": { type: "string" },
      "webhook-signature-header": { type: "string" },
      "metrics-port": { type: "string" }
    },
    strict: true
  })
  if (values["data-dir"] !== undefined) env.TUMA_DATA_DIR = values["data-dir"]
  setSignatureHeader(values["webhook-signature-header"])
  const scope = Effect.runSync(Scope.make())
  const observability = await startObservability(
    Observability.optionsFromEnv(env, { metricsPort: values["metrics-port"] }),
    scope
  )
  const database = Cli.databaseFromEnv()
  await run(
    Layer.buildWithScope(
      Worker.layer({ driver: database._tag }).pipe(
        Layer.provide(Database.layer(database).pipe(Layer.orDie)),
        Layer.provide(Observability.layerFiber(observability))
      ),
      scope
    )
  )
  console.log(`worker ${process.pid} running`)
  if (observability.metricsUrl !== undefined) console.log(`metrics on ${observability.metricsUrl}`)
  const stop = (signal: string) =>
    void run(Scope.close(scope, Exit.void)).then(() => {
      console.log(`${signal}: worker stopped`)
      process.exit(0)
    })
  process.on("SIGINT", () => stop("SIGINT"))
  process.on("SIGTERM", () => stop("SIGTERM"))
}

const main = async () => {
  const [command, ...rest] = process.argv.slice(2)
  if (command === "serve" || command === "worker") {
    tuneHeap(env)
    IdleCompaction.start(IdleCompaction.optionsFromEnv(env))
  }
  if (command === "serve") return serve(rest)
  if (command === "worker") return worker(rest)
  return Cli.run(command, rest)
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})

/**
 * Server assembly: the contract's handlers over core's use cases and the SQL store, behind the
 * envelope and auth middlewares, served by node:http.
 *
 *   layer({ server, database })  — everything, as a Layer whose output also exposes the services
 *                                  tests and the CLI need (SqlClient, Operator, AuthCache, …)
 *   address                      — the bound `http://host:port` of a built layer
 *   InFlight                     — requests being served (graceful shutdown waits for 0)
 */
import { RateLimiter } from "@effect/experimental"
import { NodeHttpServer } from "@effect/platform-node"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServer from "@effect/platform/HttpServer"
import type { SqlClient } from "@effect/sql"
import { Ids, Inbound, Operator, Send, SendConfig, SmppAccounts, SmppLiveBinds, SmppThroughput } from "@tuma/core"
import { Admin, Audit } from "@tuma/core"
import { Reads } from "@tuma/core"
import { SenderIds } from "@tuma/core"
import * as SendObserved from "@tuma/core/observability/SendObserved"
import { layerWebhookAdmin } from "@tuma/core/webhooks/WebhookAdmin"
import { WebhookConfig } from "@tuma/core/webhooks/WebhookConfig"
import { layerWebhookDestinationPolicyFromEnv } from "@tuma/providers"
import { Database } from "@tuma/store-sql"
import { SqlObservability } from "@tuma/store-sql"
import { SqlRateLimitStore } from "@tuma/store-sql"
import { SqlSendStore } from "@tuma/store-sql"
import { SqlStore } from "@tuma/store-sql"
import { Duration, Effect, Layer } from "effect"
import { createServer } from "node:http"
import type { Server as NodeServer } from "node:http"
import { unroutedAdminProblem } from "./admin/AdminToken.js"
import { AdminLive, layerAdminAuth } from "./admin/Http.js"
import { TumaApi } from "./Api.js"
import * as Console from "./console/Console.js"
import * as ConsoleServices from "./console/Services.js"
import { InboundLive } from "./inbound/Http.js"
import * as Observability from "./observability/Observability.js"
import * as PortalAssets from "./portal/Assets.js"
import * as Portal from "./portal/Portal.js"
import type { ServerOptions } from "./runtime/Config.js"
import { ServerConfig } from "./runtime/Config.js"
import * as DeliveryWorkers from "./runtime/DeliveryWorkers.js"
import * as RateLimitLease from "./runtime/RateLimitLease.js"
import { SenderIdsLive } from "./senderIds/Http.js"
import * as Auth from "./shared/Auth.js"
import { InFlight, layerEnvelope } from "./shared/Middleware.js"
import { SmppBinds } from "./smpp/Binds.js"
import { SmppEndpoint } from "./smpp/Endpoint.js"
import * as SmppListener from "./smpp/Listener.js"
import * as FastSend from "./sms/FastSend.js"
import { SmsLive } from "./sms/Http.js"
import * as Docs from "./system/Docs.js"
import { SystemLive } from "./system/Http.js"

/** Paths served outside the contract (the envelope middleware knows them for 405). */
export const extraRoutes: ReadonlyArray<readonly [string, string]> = [["GET", "/openapi.json"], ["GET", "/docs"]]

/** The handlers of every API group. */
export const ApiLive = HttpApiBuilder.api(TumaApi).pipe(
  Layer.provide([
    SmsLive,
    InboundLive,
    SenderIdsLive,
    SystemLive,
    AdminLive,
    Portal.layerHandlers,
    Console.layerHandlers
  ])
)

/** What `layer` starts: server settings, database, and optionally a node server, the workers and a prebuilt store. */
export interface StartOptions {
  readonly server: ServerOptions
  readonly database: Database.DatabaseConfig
  /** The node server to listen with (the CLI keeps a handle to stop accepting on shutdown). */
  readonly nodeServer?: NodeServer | undefined
  /** Run the delivery workers in this process too (`tuma serve` does; tests usually do not). */
  readonly workers?: boolean | undefined
  /** An already built store (`layerStore`), e.g. seeded before the workers start. */
  readonly store?: Layer.Layer<Layer.Layer.Success<ReturnType<typeof layerStore>>> | undefined
  /** Portal settings and mailer (default: from the environment). */
  readonly portal?: Portal.PortalOptions | undefined
  /** Metrics listener, tracing and logs (docs/observability.md); none when omitted. */
  readonly observability?: Observability.ObservabilityOptions | undefined
  /** Or the process-wide parts already built (`Observability.layerProcess`, the CLI). */
  readonly observabilityRuntime?: Observability.ObservabilityRuntime["Type"] | undefined
  /** The SMPP server for customers (docs/smpp.md); none when omitted. */
  readonly smpp?: SmppListener.SmppListenerOptions | undefined
}

/** The store and the use cases over it. */
export const layerStore = (database: Database.DatabaseConfig, portal: Portal.PortalOptions = {}) => {
  const sql = Database.layer(database).pipe(Layer.orDie)
  // PostgreSQL: the shared SQL store behind per-process token leases; PGlite lives in one process,
  // so an in-process limiter is exact there
  const limiter: Layer.Layer<RateLimiter.RateLimiter, never, SqlClient.SqlClient> = database._tag === "Postgres"
    ? RateLimitLease.layer(SqlRateLimitStore.layer)
    : RateLimiter.layer.pipe(Layer.provide(RateLimiter.layerStoreMemory))
  const send = SendObserved.layerObserved(Send.layer, SqlSendStore.layer)
  return Layer.mergeAll(
    send,
    Operator.layer,
    limiter,
    Reads.layer,
    SenderIds.layer,
    // the console's services (operators, review notices) over the same Admin
    ConsoleServices.layerServices(portal).pipe(Layer.provideMerge(Admin.layer)),
    // the audit log of operator actions: `Audit` and its store, for the admin API and the console
    Audit.layer,
    layerWebhookAdmin.pipe(
      Layer.provide(layerWebhookDestinationPolicyFromEnv()),
      Layer.provide(Layer.orDie(WebhookConfig.layerFromConfig))
    ),
    Portal.layerServices(portal),
    // SMPP credentials, the live binds of every process, and this process's binds (the SMPP listener)
    SmppAccounts.layer,
    SmppLiveBinds.layer,
    SmppThroughput.layer,
    SmppBinds.layer,
    // two-way SMS: inbound numbers, the inbox, replies (over the same Send and Audit)
    Inbound.layer.pipe(Layer.provide([send, Audit.layer]))
  ).pipe(
    // every SQL adapter (with this driver's ContentCounter); operator changes made by any process
    // drop the caches of this one (SettingsChanges, decisions §30)
    Layer.provideMerge(SqlStore.layerApi(database._tag)),
    Layer.provideMerge(Ids.layer),
    Layer.provideMerge(sql)
  )
}

/** The send settings the server's options override (decisions §7: the duplicate-content limit). */
export const layerSendConfig = Layer.effect(
  SendConfig,
  Effect.map(ServerConfig, (config) => ({
    ...SendConfig.defaultValue(),
    duplicateLimit: config.rateLimit.duplicateLimit,
    duplicateWindow: Duration.millis(config.rateLimit.duplicateWindowMillis)
  }))
)

/** The HTTP app (routes, docs, middlewares) over the given services. */
export const layerHttp = Layer.mergeAll(
  Docs.layer({ path: "/docs" }),
  HttpApiBuilder.middlewareOpenApi({ path: "/openapi.json" }),
  PortalAssets.layer,
  layerEnvelope(TumaApi, extraRoutes, [unroutedAdminProblem])
).pipe(
  Layer.provideMerge(ApiLive),
  Layer.provide(Auth.layer),
  Layer.provide(layerAdminAuth),
  Layer.provide(Console.layerHttp),
  Layer.provide(Portal.layerHttp)
)

/**
 * The whole server as a layer: store, use cases, middlewares, handlers and the node HTTP server listening
 * (plus the delivery workers when asked).
 */
export const layer = (options: StartOptions) => {
  const config = Layer.succeed(ServerConfig, options.server)
  // the single send is answered in front of the platform's request listener (FastSend.ts)
  const slot = FastSend.FastSendSlot.make()
  // where customers connect over SMPP (filled by this process's SMPP listener; the portal shows it)
  const smppEndpoint = SmppEndpoint.make()
  const node = NodeHttpServer.layer(() => FastSend.install(options.nodeServer ?? createServer(), slot), {
    port: options.server.port,
    host: options.server.host
  })
  const serve = Layer.merge(HttpApiBuilder.serve(), FastSend.layer.pipe(Layer.provide(Auth.layer)))
  // the delivery workers (with the inbound housekeeping: joining timeouts, auto replies)
  const served = options.workers === true ? Layer.merge(serve, DeliveryWorkers.layer()) : serve
  const runtime = options.observabilityRuntime
  const observability = runtime !== undefined
    ? Layer.merge(Layer.succeed(Observability.ObservabilityRuntime, runtime), Observability.layerFiber(runtime))
    : options.observability !== undefined
    ? Observability.layer(options.observability)
    : undefined
  const withSmpp = options.smpp === undefined ? served : Layer.merge(served, SmppListener.layer(options.smpp))
  const app = observability === undefined ? withSmpp : Layer.merge(withSmpp, SqlObservability.layerSamplers)
  const built = app.pipe(
    Layer.provide(layerHttp),
    Layer.provideMerge(node),
    Layer.provideMerge(Auth.AuthCache.layer),
    Layer.provideMerge(options.store ?? layerStore(options.database, options.portal)),
    Layer.provideMerge(layerSendConfig),
    Layer.provideMerge(config),
    Layer.provideMerge(Layer.succeed(FastSend.FastSendSlot, slot)),
    Layer.provideMerge(Layer.succeed(SmppEndpoint, smppEndpoint))
  )
  return observability === undefined ? built : built.pipe(Layer.provideMerge(observability))
}

/** `http://host:port` of the running server. */
export const address = Effect.map(HttpServer.HttpServer, (server) => {
  const a = server.address
  return a._tag === "TcpAddress" ? `http://${a.hostname === "0.0.0.0" ? "127.0.0.1" : a.hostname}:${a.port}` : a.path
})

/** The services the running server provides. */
export type AppServices = Layer.Layer.Success<ReturnType<typeof layer>> | SqlClient.SqlClient

export { InFlight }

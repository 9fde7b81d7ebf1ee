/**
 * `pnpm bench:inbound` with BENCH_SPLIT=1: the webhook workers in a process of their own, as `tuma
 * worker`'s webhook half runs them (`WebhookWorkers.layer` with its own `Send`), over the bench's
 * scratch database (BENCH_CHILD_DATABASE_URL). Prints "ready" once running; stops on SIGTERM.
 */
import { Ids, Send } from "@tuma/core"
import { SqlStore } from "@tuma/store-sql"
import * as Database from "@tuma/store-sql/Database"
import { Effect, Exit, Layer, Scope } from "effect"
import * as WebhookWorkers from "../src/runtime/WebhookWorkers.js"

const url = process.env.BENCH_CHILD_DATABASE_URL ?? ""
const scope = Effect.runSync(Scope.make())
await Effect.runPromise(Layer.buildWithScope(
  WebhookWorkers.layer({}, { TUMA_WEBHOOK_ALLOW: "127.0.0.1" }).pipe(
    Layer.provide(Send.layer.pipe(Layer.provide(SqlStore.layerSend("Postgres")))),
    Layer.provide(Ids.layer),
    Layer.provide(Database.layer(Database.postgres(url, { maxConnections: 4 })).pipe(Layer.orDie))
  ),
  scope
))
console.log("ready")
process.on("SIGTERM", () => void Effect.runPromise(Scope.close(scope, Exit.void)).then(() => process.exit(0)))

/**
 * `SqlStore`: one layer wires every SQL adapter. On each SQL driver the groups build over the
 * driver's database and give every port, with the driver's `ContentCounter` variant; `layer(database)`
 * builds over a database config on its own.
 */
import { expect } from "@effect/vitest"
import { ContentCounter, OperatorStore, SendStore } from "@tuma/core"
import { TraceContextStore } from "@tuma/core/observability/Tracing"
import { AdminStore } from "@tuma/core/ports/AdminStore"
import { ApiKeys } from "@tuma/core/ports/ApiKeys"
import { AuditStore } from "@tuma/core/ports/AuditStore"
import { DispatchStore, DispatchWakeups } from "@tuma/core/ports/DispatchStore"
import { OperatorUserStore } from "@tuma/core/ports/OperatorUserStore"
import { PortalReadStore } from "@tuma/core/ports/PortalReadStore"
import { PortalStore } from "@tuma/core/ports/PortalStore"
import { ReadStore } from "@tuma/core/ports/ReadStore"
import { SenderIdStore } from "@tuma/core/ports/SenderIdStore"
import { SettingsChanges } from "@tuma/core/ports/SettingsChanges"
import { WebhookStore, WebhookWakeups } from "@tuma/core/ports/WebhookStore"
import { Effect, Layer } from "effect"
import * as Database from "../src/Database.js"
import * as SqlContentCounter from "../src/SqlContentCounter.js"
import * as SqlStore from "../src/SqlStore.js"
import { forEachDriver } from "./harness.js"

const tags: ReadonlyArray<{ readonly key: string }> = [
  SendStore,
  ContentCounter,
  OperatorStore,
  AuditStore,
  ApiKeys,
  ReadStore,
  SenderIdStore,
  AdminStore,
  WebhookStore,
  SettingsChanges,
  PortalStore,
  PortalReadStore,
  OperatorUserStore,
  TraceContextStore,
  DispatchStore,
  DispatchWakeups,
  WebhookWakeups
]

forEachDriver(
  (db, driver) =>
    Layer.mergeAll(
      SqlStore.layerApi(driver === "postgres" ? "Postgres" : "Pglite"),
      SqlStore.layerDelivery,
      SqlStore.layerWebhookWorkers
    ).pipe(Layer.provide(db)),
  (it) => {
    it.effect("each driver gets its ContentCounter: SQL on PostgreSQL, in-process on PGlite", () =>
      Effect.sync(() => {
        expect(SqlStore.layerContentCounter("Postgres")).toBe(SqlContentCounter.layer)
        expect(SqlStore.layerContentCounter("Pglite")).toBe(ContentCounter.layerMemory)
      }))

    it.effect("the groups give every port", () =>
      Effect.gen(function*() {
        const ctx = yield* Effect.context<SqlStore.Ports>()
        for (const tag of tags) expect(ctx.unsafeMap.has(tag.key), tag.key).toBe(true)
      }))
  }
)

forEachDriver(
  () => SqlStore.layer(Database.pglite("memory://")),
  (it, driver) => {
    it.effect.skipIf(driver !== "pglite")(
      "layer(database) gives every port and the client",
      () =>
        Effect.gen(function*() {
          const ctx = yield* Effect.context<SqlStore.Ports>()
          for (const tag of tags) expect(ctx.unsafeMap.has(tag.key), tag.key).toBe(true)
        })
    )
  }
)

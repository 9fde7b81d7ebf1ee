/**
 * `tuma worker`'s workers as one layer: the delivery workers (carrier binds, with the inbound
 * housekeeping of a process that receives MO: joins at the timeout, automatic replies), the webhook
 * workers and the store's metric samplers, with one `Send` of their own (automatic replies and
 * system SMS go through every rule of a send). Requires only the `SqlClient`.
 */
import type { SqlClient } from "@effect/sql"
import { Ids, Send } from "@tuma/core"
import type { DeliveryOptions } from "@tuma/core/delivery/DeliveryConfig"
import type { InboundWorkerSettings } from "@tuma/core/inbound/InboundWorkers"
import { defaultInboundWorkerSettings } from "@tuma/core/inbound/InboundWorkers"
import { SqlObservability, SqlStore } from "@tuma/store-sql"
import { Layer } from "effect"
import * as DeliveryWorkers from "./DeliveryWorkers.js"
import * as WebhookWorkers from "./WebhookWorkers.js"

/** What a worker process may be told (tests: shorter waits). */
export interface WorkerOptions {
  readonly driver: SqlStore.Driver
  readonly delivery?: Partial<DeliveryOptions>
  readonly inbound?: InboundWorkerSettings
  readonly env?: Record<string, string | undefined>
}

/** Delivery (and inbound), webhook workers and samplers over a `SqlClient`. */
export const layer = (options: WorkerOptions): Layer.Layer<never, never, SqlClient.SqlClient> => {
  const env = options.env ?? process.env
  return Layer.mergeAll(
    Layer.discard(
      DeliveryWorkers.layer(
        options.delivery ?? DeliveryWorkers.optionsFromEnv(env),
        options.inbound ?? defaultInboundWorkerSettings
      )
    ),
    WebhookWorkers.layer({}, env),
    SqlObservability.layerSamplers
  ).pipe(
    Layer.provide(Send.layer.pipe(Layer.provide(SqlStore.layerSend(options.driver)))),
    Layer.provide(Ids.layer)
  )
}

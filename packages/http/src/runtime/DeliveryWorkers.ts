/**
 * Delivery workers assembled over the SQL store (owned by the delivery engineer; see
 * docs/delivery.md): `tuma serve` includes `layer(...)` next to the HTTP server, `tuma worker` runs
 * it (`Worker.ts`). Needs a `SqlClient` (PGlite or PostgreSQL) in context; wake-ups use the same driver.
 *
 * Environment (all optional): TUMA_DELIVERY_MAX_IN_FLIGHT, TUMA_DELIVERY_CLAIM_BATCH,
 * TUMA_DELIVERY_LEASE_MS, TUMA_DELIVERY_POLL_MS, TUMA_DELIVERY_GATHER_MS, TUMA_DELIVERY_FLUSH_MS,
 * TUMA_DELIVERY_UNKNOWN_TIMEOUT_MS, TUMA_DELIVERY_GIVE_UP_MS, TUMA_DELIVERY_TAKEOVER_MS, TUMA_DELIVERY_DISPATCH (0 = only receipts/schedules/reconciliation).
 */
import type { DeliveryOptions } from "@tuma/core/delivery/DeliveryConfig"
import { DeliveryConfig } from "@tuma/core/delivery/DeliveryConfig"
import { layerDelivery } from "@tuma/core/delivery/Dispatcher"
import type { InboundWorkerSettings } from "@tuma/core/inbound/InboundWorkers"
import { defaultInboundWorkerSettings, layer as layerInboundWorkers } from "@tuma/core/inbound/InboundWorkers"
import { layerObservedDispatchStore, layerObservedProviders } from "@tuma/core/observability/DeliveryObserved"
import { layerProvidersFromStore } from "@tuma/providers"
import { SqlDispatchStore } from "@tuma/store-sql"
import { SqlStore } from "@tuma/store-sql"
import { Layer } from "effect"
import { hostname } from "node:os"

/** The options that are numbers. */
type NumericOption = { readonly [K in keyof DeliveryOptions]: DeliveryOptions[K] extends number ? K : never }[
  keyof DeliveryOptions
]

const ENV: ReadonlyArray<readonly [string, NumericOption]> = [
  ["TUMA_DELIVERY_MAX_IN_FLIGHT", "maxInFlight"],
  ["TUMA_DELIVERY_CLAIM_BATCH", "claimBatch"],
  ["TUMA_DELIVERY_LEASE_MS", "leaseMs"],
  ["TUMA_DELIVERY_POLL_MS", "pollIntervalMs"],
  ["TUMA_DELIVERY_GATHER_MS", "claimGatherMs"],
  ["TUMA_DELIVERY_FLUSH_MS", "flushDelayMs"],
  ["TUMA_DELIVERY_UNKNOWN_TIMEOUT_MS", "unknownTimeoutMs"],
  ["TUMA_DELIVERY_GIVE_UP_MS", "giveUpAfterMs"],
  ["TUMA_DELIVERY_TAKEOVER_MS", "takeOverAfterMs"]
]

export const optionsFromEnv = (env: NodeJS.ProcessEnv = process.env): Partial<DeliveryOptions> => {
  const out: { -readonly [K in keyof DeliveryOptions]?: DeliveryOptions[K] } = {}
  for (const [name, key] of ENV) {
    const v = env[name]
    if (v === undefined || v === "") continue
    const n = Number(v)
    if (!Number.isFinite(n) || n < 0) throw new Error(`${name}: not a non-negative number: ${v}`)
    out[key] = n
  }
  if (env.TUMA_DELIVERY_DISPATCH === "0") out.dispatch = false
  return out
}

/**
 * Writer, event sink, providers (from the `providers` table) and workers; requires `SqlClient`, and
 * `Send` for the automatic replies. The store and the providers are observed (metrics, and spans
 * when tracing: docs/observability.md).
 *
 * A process that holds carrier binds receives MO, so it also runs the inbound housekeeping
 * (`InboundWorkers`: parts joined at the timeout, automatic replies to STOP/START/HELP): `tuma
 * serve` and `tuma worker` alike, one pipeline whichever process kind receives.
 */
export const layer = (
  options: Partial<DeliveryOptions> = optionsFromEnv(),
  inbound: InboundWorkerSettings = defaultInboundWorkerSettings
) =>
  Layer.merge(
    layerDelivery(layerObservedProviders(layerProvidersFromStore)).pipe(
      // the observed store over the SQL one; the SQL adapters are `Server.layerStore`'s (memoised)
      Layer.provide(layerObservedDispatchStore(SqlDispatchStore.layer)),
      Layer.provide(SqlStore.layerDelivery),
      Layer.provide(DeliveryConfig.layer({ workerName: `${hostname()}:${process.pid}`, ...options })),
      // polling statements are not traced; the observed store and providers trace each message
      Layer.provide(Layer.setTracerEnabled(false))
    ),
    // its polling is untraced by itself; an automatic reply is a send, traced as one
    layerInboundWorkers(inbound).pipe(Layer.provide(SqlStore.layerDelivery))
  )

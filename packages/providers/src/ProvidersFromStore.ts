/**
 * Builds the `Providers` registry from the `providers` table: one adapter per enabled row, by `kind`:
 *
 * - `simulated`: config `{ latencyMs?, receiptDelayMs?, mix?, down? }` (see SimulatedProvider)
 * - `smpp`: config `{ host, port, systemId, password, systemType?, window?, enquireLinkMs?,
 *   responseTimeoutMs?, unavailableAfterMs?, reconnectInitialMs?, reconnectMaxMs?, throttleInitialMs?,
 *   throttleMaxMs?, throttleGiveUpMs?, registeredDelivery? }` (see SmppProvider)
 *
 * `maxPerSecond` in any config is the provider's throughput limit, enforced by the dispatcher across
 * processes. The adapter's `Provider.id` is the row's `name`.
 */
import { DispatchStore } from "@tuma/core/delivery/DispatchStore"
import type { Provider } from "@tuma/core/ports/Provider"
import { Providers, providersFrom } from "@tuma/core/ports/Provider"
import { Effect, Layer } from "effect"
import { makeSimulatedProvider, type SimulatedProviderConfig } from "./simulated/SimulatedProvider.js"
import { makeSmppProvider, type SmppProviderConfig } from "./smpp/SmppProvider.js"

export const layerProvidersFromStore = Layer.scoped(
  Providers,
  Effect.gen(function*() {
    const store = yield* DispatchStore
    const rows = yield* store.providers
    const built: Array<Provider> = []
    for (const row of rows) {
      const config = row.config as Record<string, unknown>
      if (row.kind === "simulated") {
        built.push(yield* makeSimulatedProvider({ ...(config as Partial<SimulatedProviderConfig>), id: row.name }))
      } else if (row.kind === "smpp") {
        built.push(yield* makeSmppProvider({ ...(config as unknown as SmppProviderConfig), id: row.name }))
      } else {
        yield* Effect.logWarning(`provider ${row.name}: unknown kind ${row.kind}, not started`)
      }
    }
    yield* Effect.logInfo(`providers: ${built.map((p) => p.id).join(", ") || "(none)"}`)
    return providersFrom(built)
  })
)

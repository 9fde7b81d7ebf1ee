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
 *
 * The registry is live (decisions §30): `reload` reads the table again, starts the providers added
 * or enabled since, restarts those whose kind or config changed, and stops the disabled or removed
 * ones. A replaced or stopped adapter leaves the registry at once (no new submit goes to it) and is
 * closed `retireAfterMillis` later, so submits already in progress get their answers and receipts
 * still arriving on its bind are recorded.
 */
import { DispatchStore, type ProviderRow } from "@tuma/core/ports/DispatchStore"
import type { Provider } from "@tuma/core/ports/Provider"
import { ProviderEventSink, Providers } from "@tuma/core/ports/Provider"
import { settingsFields, SimulatedSettings, SmppSettings } from "@tuma/domain"
import { Effect, ExecutionStrategy, Exit, Layer, type ParseResult, Schema, Scope } from "effect"
import { makeSimulatedProvider, type SimulatedProviderConfig } from "./simulated/SimulatedProvider.js"
import { makeSmppProvider, type SmppProviderConfig } from "./smpp/SmppProvider.js"

/** How long a replaced or disabled adapter stays open for the submits and receipts in progress. */
export const RETIRE_AFTER_MILLIS = 15_000

interface Running {
  readonly provider: Provider
  readonly signature: string
  readonly scope: Scope.CloseableScope
}

/** A `simulated` row's config: `SimulatedProviderConfig` but the id (the row's name); domain `SimulatedSettings`. */
export const decodeSimulatedConfig = (
  config: unknown
): Effect.Effect<Omit<SimulatedProviderConfig, "id">, ParseResult.ParseError> =>
  Schema.decodeUnknown(SimulatedSettings)(settingsFields(config))

/** An `smpp` row's config: `SmppProviderConfig` but the id (the row's name); domain `SmppSettings`. */
export const decodeSmppConfig = (
  config: unknown
): Effect.Effect<Omit<SmppProviderConfig, "id">, ParseResult.ParseError> =>
  Schema.decodeUnknown(SmppSettings)(settingsFields(config))

const signatureOf = (row: ProviderRow) => `${row.id}\u0001${row.kind}\u0001${JSON.stringify(row.config)}`

/**
 * The live `Providers` registry over the `providers` table (see the module comment): `reload` applies what
 * operators changed; replaced adapters retire after `retireAfterMillis`.
 */
export const make = (options: { readonly retireAfterMillis?: number } = {}) =>
  Effect.gen(function*() {
    const store = yield* DispatchStore
    const sink = yield* ProviderEventSink
    const layerScope = yield* Effect.scope
    const retireAfter = options.retireAfterMillis ?? RETIRE_AFTER_MILLIS
    const running = new Map<string, Running>()
    let all: ReadonlyArray<Provider> = []

    const build = (row: ProviderRow) =>
      Effect.gen(function*() {
        const scope = yield* Scope.fork(layerScope, ExecutionStrategy.sequential)
        const invalid = (e: ParseResult.ParseError) =>
          Effect.as(
            Effect.logWarning(`provider ${row.name}: invalid ${row.kind} config, not started: ${e.message}`),
            null
          )
        const make: Effect.Effect<Provider | null, never, ProviderEventSink | Scope.Scope> = row.kind === "simulated"
          ? Effect.matchEffect(decodeSimulatedConfig(row.config), {
            onFailure: invalid,
            onSuccess: (config) => makeSimulatedProvider({ ...config, id: row.name })
          })
          : row.kind === "smpp"
          ? Effect.matchEffect(decodeSmppConfig(row.config), {
            onFailure: invalid,
            onSuccess: (config) => makeSmppProvider({ ...config, id: row.name })
          })
          : Effect.as(Effect.logWarning(`provider ${row.name}: unknown kind ${row.kind}, not started`), null)
        const built = yield* make.pipe(Effect.provideService(ProviderEventSink, sink), Scope.extend(scope))
        if (built === null) {
          yield* Scope.close(scope, Exit.void)
          return null
        }
        return { provider: built, signature: signatureOf(row), scope } satisfies Running
      })

    const retire = (r: Running) =>
      Scope.close(r.scope, Exit.void).pipe(Effect.delay(retireAfter), Effect.forkIn(layerScope), Effect.asVoid)

    const lock = yield* Effect.makeSemaphore(1)
    const reload = lock.withPermits(1)(Effect.gen(function*() {
      const rows = yield* store.providers
      const wanted = new Map(rows.map((r) => [r.name, r] as const))
      const started: Array<string> = []
      const stopped: Array<string> = []
      for (const [name, r] of running) {
        const row = wanted.get(name)
        if (row === undefined || signatureOf(row) !== r.signature) {
          running.delete(name)
          stopped.push(name)
          yield* retire(r)
        }
      }
      for (const row of rows) {
        if (running.has(row.name)) continue
        const r = yield* build(row)
        if (r !== null) {
          running.set(row.name, r)
          started.push(row.name)
        }
      }
      all = [...running.values()].map((r) => r.provider)
      if (started.length > 0 || stopped.length > 0) {
        yield* Effect.logInfo(
          `providers: ${all.map((p) => p.id).join(", ") || "(none)"}` +
            (stopped.length > 0 ? ` (stopped ${stopped.join(", ")})` : "") +
            (started.length > 0 && running.size !== started.length ? ` (started ${started.join(", ")})` : "")
        )
      }
    }))
    yield* reload
    if (running.size === 0) yield* Effect.logInfo("providers: (none)")

    return Providers.of({
      get: (id) => running.get(id)?.provider,
      get all() {
        return all
      },
      reload
    })
  })

/** `Providers` from the `providers` table, live, with the default retirement delay. */
export const layerProvidersFromStore = Layer.scoped(Providers, make())

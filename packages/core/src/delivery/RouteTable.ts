/**
 * The dispatcher's view of the carriers (decisions §30): the loaded providers, each market's routes in
 * priority order, provider names by id, and one `Pacer` per rate-limited provider. Reloaded when an
 * operator change is announced (`SettingsChanges`), every `routesRefreshMs`, and before a claimed
 * batch is routed if the store's settings version moved (`ensureCurrent`: a message claimed now is
 * routed by what it was checked by). The tables belong to this module; the others read them.
 */
import type { Scope } from "effect"
import { Effect, Schedule } from "effect"
import type { RouteRow } from "../ports/DispatchStore.js"
import { DispatchStore } from "../ports/DispatchStore.js"
import type { Provider } from "../ports/Provider.js"
import { Providers } from "../ports/Provider.js"
import { SettingsChanges } from "../ports/SettingsChanges.js"
import { DeliveryConfig } from "./DeliveryConfig.js"
import type { Pacer } from "./Pacer.js"
import { makePacer } from "./Pacer.js"

/** The loaded routes, providers and pacers. */
export interface RouteTable {
  /** The market's routes in priority order (only those of loaded providers). */
  readonly routesOf: (marketId: string) => ReadonlyArray<RouteRow>
  /** The loaded provider of a provider id, if any. */
  readonly providerById: (providerId: string) => Provider | undefined
  /** A loaded route's provider. */
  readonly providerOf: (route: RouteRow) => Provider
  /** The route's pacer, or null when its provider has no `maxPerSecond`. */
  readonly pacerOf: (route: RouteRow) => Pacer | null
  /** Reloads unless already at the store's settings version. */
  readonly ensureCurrent: Effect.Effect<void>
}

/**
 * Loads the table, then keeps it current for the life of the scope (reload on a change notice and
 * every `routesRefreshMs`). `fork` runs the pacers' fibers.
 */
export const makeRouteTable = (
  fork: (effect: Effect.Effect<void>) => void
): Effect.Effect<RouteTable, never, DispatchStore | Providers | SettingsChanges | Scope.Scope> =>
  Effect.gen(function*() {
    const store = yield* DispatchStore
    const providers = yield* Providers
    const settings = yield* SettingsChanges
    const cfg = yield* DeliveryConfig
    let routesByMarket = new Map<string, ReadonlyArray<RouteRow>>()
    let nameById = new Map<string, string>()
    const pacers = new Map<string, Pacer>()
    /** The settings version the providers and routes were loaded at. */
    let loadedVersion = ""

    const loadRoutes = Effect.gen(function*() {
      const rows = yield* store.routes
      const by = new Map<string, Array<RouteRow>>()
      for (const r of rows) {
        if (providers.get(r.providerName) === undefined) continue
        const list = by.get(r.marketId) ?? []
        list.push(r)
        by.set(r.marketId, list)
        // a changed limit takes a new pacer (slots already reserved stay in the store's count)
        if (pacers.get(r.providerId)?.perSecond !== r.maxPerSecond) pacers.delete(r.providerId)
      }
      routesByMarket = by
      nameById = new Map((yield* store.providers).map((p) => [p.id, p.name] as const))
    })
    const reloadLock = yield* Effect.makeSemaphore(1)
    /** Providers (started, restarted, stopped) and routes as the store has them now. */
    const reload = reloadLock.withPermits(1)(Effect.gen(function*() {
      const version = yield* settings.version
      if (providers.reload !== undefined) yield* providers.reload
      yield* loadRoutes
      loadedVersion = version
    }))

    yield* reload
    const changed = yield* settings.subscribe
    yield* changed.pipe(
      Effect.zipRight(reload),
      Effect.catchAllCause((c) => Effect.logWarning("settings reload failed", c)),
      Effect.forever,
      Effect.forkScoped
    )
    yield* reload.pipe(
      Effect.catchAllCause((c) => Effect.logWarning("route refresh failed", c)),
      Effect.repeat(Schedule.spaced(cfg.routesRefreshMs)),
      Effect.delay(cfg.routesRefreshMs),
      Effect.forkScoped
    )

    const providerOf = (route: RouteRow): Provider => {
      const provider = providers.get(route.providerName)
      if (provider === undefined) throw new Error(`provider ${route.providerName} of a loaded route is not loaded`)
      return provider
    }
    const pacerOf = (route: RouteRow): Pacer | null => {
      if (route.maxPerSecond === null || route.maxPerSecond <= 0) return null
      const existing = pacers.get(route.providerId)
      if (existing !== undefined) return existing
      const pacer = makePacer({
        perSecond: route.maxPerSecond,
        reserve: (count, perSecond) => store.reserveSlots(route.providerId, count, perSecond),
        fork
      })
      pacers.set(route.providerId, pacer)
      return pacer
    }
    return {
      routesOf: (marketId) => routesByMarket.get(marketId) ?? [],
      providerById: (providerId) => {
        const name = nameById.get(providerId)
        return name === undefined ? undefined : providers.get(name)
      },
      providerOf,
      pacerOf,
      ensureCurrent: Effect.flatMap(settings.version, (v) => v === loadedVersion ? Effect.void : reload)
    }
  })

/**
 * This process's side of the live-binds list (docs/smpp.md "Live binds"): every bind up here is
 * written to the `SmppBindStore` when it binds, refreshed by a heartbeat every
 * `BIND_HEARTBEAT.intervalMillis` (messages in flight, submits of the last minute), and removed when it
 * closes. An unbind asked by anyone (admin API, console, portal; in any process) is found at the
 * store's wake-up or at the next heartbeat: the bind is sent `unbind` and its connection closed. The
 * heartbeat also purges the rows of processes that died (no heartbeat for three stale periods).
 */
import type { SmppBindRow } from "@tuma/core"
import { BIND_HEARTBEAT, SmppBindStore } from "@tuma/core"
import { Duration, Effect, Runtime } from "effect"
import type { Scope } from "effect"
import { randomUUID } from "node:crypto"
import type { BindRegistry, BoundSession } from "./Binds.js"

/** What the listener calls on this process's binds. */
export interface LiveBinds {
  /**
   * A bind asks to come up: written to the list unless its credentials already have `maxBinds` live
   * binds in any process (then false: refused).
   */
  readonly admit: (session: BoundSession, maxBinds: number) => Effect.Effect<boolean>
  /** A bind came up: written to the list. */
  readonly added: (session: BoundSession) => void
  /** A bind closed: removed from the list. */
  readonly removed: (session: BoundSession) => void
}

/** Starts the heartbeat and the unbind wake-ups for the life of the scope; `heartbeatMs` for tests. */
export const start = (
  binds: BindRegistry,
  heartbeatMs: number = BIND_HEARTBEAT.intervalMillis
): Effect.Effect<LiveBinds, never, SmppBindStore | Scope.Scope> =>
  Effect.gen(function*() {
    const store = yield* SmppBindStore
    const runtime = yield* Effect.runtime<never>()
    // a row not written or not removed is put right by the next heartbeat (or purged): a failure here
    // (the database closing under a server shutting down) is not worth a warning
    const run = <A>(effect: Effect.Effect<A>) =>
      void Runtime.runPromise(runtime)(
        effect.pipe(Effect.catchAllCause((cause) => Effect.logDebug("smpp live binds", cause)))
      )
    const processId = randomUUID()
    // the binds written to the list (a bind closed before it was added is not written)
    const listed = new Set<string>()
    const rowOf = (s: BoundSession, now: Date): SmppBindRow => {
      const f = s.figures()
      return {
        id: s.uid,
        smpp_account_id: s.smppAccountId,
        account_id: s.accountId,
        system_id: s.systemId,
        bind_type: s.kind,
        remote_address: s.remote,
        process_id: processId,
        since: s.since,
        heartbeat_at: now,
        in_flight: f.inFlight,
        submits_last_minute: f.submitsLastMinute,
        unbind_requested_at: null
      }
    }
    const close = (uids: ReadonlyArray<string>) => {
      if (uids.length === 0) return
      const asked = new Set(uids)
      for (const s of binds.all()) if (asked.has(s.uid)) s.close()
    }
    const heartbeat = Effect.gen(function*() {
      const now = new Date()
      const up = binds.all().filter((s) => listed.has(s.uid))
      close(yield* store.heartbeat(processId, up.map((s) => rowOf(s, now)), now))
      yield* store.purge(new Date(now.getTime() - 3 * BIND_HEARTBEAT.staleMillis))
    })
    yield* heartbeat.pipe(
      Effect.catchAllCause((cause) => Effect.logWarning("smpp bind heartbeat", cause)),
      Effect.zipRight(Effect.sleep(Duration.millis(heartbeatMs))),
      Effect.forever,
      Effect.forkScoped
    )
    const wakeups = yield* store.wakeups
    yield* wakeups.next.pipe(
      Effect.zipRight(store.unbindRequests(processId)),
      Effect.map(close),
      Effect.catchAllCause((cause) => Effect.logWarning("smpp unbind wake-up", cause)),
      Effect.forever,
      Effect.forkScoped
    )
    // this process's rows go with it
    yield* Effect.addFinalizer(() => Effect.ignore(store.heartbeat(processId, [], new Date())))
    return {
      admit: (session, maxBinds) => {
        const now = new Date()
        return store.admit(rowOf(session, now), maxBinds, new Date(now.getTime() - BIND_HEARTBEAT.staleMillis)).pipe(
          Effect.tap((ok) => ok ? Effect.sync(() => listed.add(session.uid)) : Effect.void)
        )
      },
      added: (session) => {
        // admitted binds are written already
        if (listed.has(session.uid)) return
        listed.add(session.uid)
        run(store.register(rowOf(session, new Date())))
      },
      removed: (session) => {
        if (!listed.delete(session.uid)) return
        run(store.remove(session.uid))
      }
    }
  })

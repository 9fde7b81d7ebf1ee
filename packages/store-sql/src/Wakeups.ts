/**
 * Wake-ups on a `pg_notify` channel, for the workers that would otherwise only poll: LISTEN on
 * PostgreSQL (a dedicated connection of `@effect/sql-pg`, re-established after a loss), `pglite.listen`
 * on PGlite (in process). Without either, `next` never completes and the worker polls as before.
 * Used by `SqlDispatchStore.layerWakeups` (`tuma_dispatch`) and `SqlWebhookStore.layerWakeups`
 * (`tuma_webhooks`). The payload must not be empty: `@effect/sql-pg` drops such notifications (0720).
 */
import { PgClient } from "@effect/sql-pg"
import { Effect, Option, Queue, Schedule, Stream } from "effect"
import type { Scope } from "effect"
import { PgliteClient } from "./PgliteClient.js"

/** A wake-up source on `channel` (scoped: it holds the listener); `name` labels its warnings. */
export const listen = (
  channel: string,
  name: string
): Effect.Effect<{ readonly next: Effect.Effect<void> }, never, Scope.Scope> =>
  Effect.gen(function*() {
    const signal = yield* Queue.sliding<void>(1)
    const pglite = yield* Effect.serviceOption(PgliteClient)
    const pg = yield* Effect.serviceOption(PgClient.PgClient)
    if (Option.isSome(pglite)) {
      const unsubscribe = yield* Effect.promise(() =>
        pglite.value.pglite.listen(channel, () => Queue.unsafeOffer(signal, undefined))
      )
      yield* Effect.addFinalizer(() => Effect.promise(() => unsubscribe()).pipe(Effect.ignore))
    } else if (Option.isSome(pg)) {
      yield* pg.value.listen(channel).pipe(
        Stream.runForEach(() => Queue.offer(signal, undefined)),
        Effect.tapErrorCause((cause) => Effect.logWarning(`${name} LISTEN lost; retrying`, cause)),
        Effect.retry(Schedule.spaced("1 second")),
        Effect.forkScoped
      )
    }
    return { next: Queue.take(signal) }
  })

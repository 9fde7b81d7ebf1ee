/**
 * The `SettingsChanges` port: how a process learns that an operator changed a setting it caches
 * (providers, routes, markets, spam rules, accounts, API keys), in this process or another one
 * (decisions §30: within 2 s, without a restart). SQL adapter: @tuma/store-sql `SqlSettingsChanges`
 * (a version row bumped by triggers, LISTEN/NOTIFY, and a poll of the row as the fallback).
 *
 * - `version` reads the current version (a decimal string that changes with every committed change).
 *   A reader that compares it with the version its cache was built from knows whether the cache is
 *   stale: the delivery workers read it after every claim, so a message accepted after a change is
 *   routed by the new settings.
 * - `subscribe` answers a `next` effect that completes when settings changed since the previous
 *   `next` completed (changes in between coalesce into one).
 */
import type { Scope } from "effect"
import { Context, Effect, Queue } from "effect"

/** Tells a process that cached operator settings changed: the current `version`, and `subscribe` for wake-ups. */
export class SettingsChanges extends Context.Tag("@tuma/core/SettingsChanges")<SettingsChanges, {
  readonly version: Effect.Effect<string>
  readonly subscribe: Effect.Effect<Effect.Effect<void>, never, Scope.Scope>
}>() {}

/**
 * The subscribers of a `SettingsChanges` implementation: `subscribe` is the port's (a sliding queue
 * of one per subscriber, removed with its scope), `notify` wakes every subscriber.
 */
export const makeSubscribers = () => {
  const subscribers = new Set<Queue.Queue<void>>()
  const notify = () => {
    for (const q of subscribers) Queue.unsafeOffer(q, undefined)
  }
  const subscribe = Effect.acquireRelease(
    Effect.tap(Queue.sliding<void>(1), (q) => Effect.sync(() => subscribers.add(q))),
    (q) => Effect.sync(() => subscribers.delete(q))
  ).pipe(Effect.map((q) => Queue.take(q)))
  return { notify, subscribe }
}

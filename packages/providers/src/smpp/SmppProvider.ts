/**
 * The SMPP 3.4 carrier adapter of the `Provider` port as an Effect: an `SmppClient` (SmppClient.ts, where
 * the connection's behaviour is described) started for the life of the scope, its events sent to the
 * `ProviderEventSink`.
 */
import type { Provider, SubmitOutcome } from "@tuma/core/ports/Provider"
import { ProviderEventSink } from "@tuma/core/ports/Provider"
import type { Scope } from "effect"
import { Effect, Exit, Runtime } from "effect"
import { partCount } from "./codec.js"
import type { SmppProviderConfig } from "./config.js"
import { SmppClient } from "./SmppClient.js"

export type { SmppProviderConfig } from "./config.js"

/** Build an SMPP provider bound for the life of the scope; events go to the `ProviderEventSink`. */
export const makeSmppProvider = (
  config: SmppProviderConfig
): Effect.Effect<Provider & { readonly client: SmppClient }, never, ProviderEventSink | Scope.Scope> =>
  Effect.gen(function*() {
    const sink = yield* ProviderEventSink
    const runtime = yield* Effect.runtime<never>()
    const runCallback = Runtime.runCallback(runtime)
    const runFork = Runtime.runFork(runtime)
    const client = new SmppClient(
      config,
      sink.offer ??
        ((event, done) => runCallback(sink.handle(event), { onExit: (exit) => done(Exit.isSuccess(exit)) })),
      (level, message) => {
        runFork(level === "warn" ? Effect.logWarning(message) : Effect.logInfo(message))
      }
    )
    yield* Effect.acquireRelease(Effect.sync(() => client.start()), () => Effect.promise(() => client.stop()))
    const submitMany: NonNullable<Provider["submitMany"]> = (smses, onOutcome) =>
      Effect.async<void>((resume) => {
        let left = smses.length
        if (left === 0) return resume(Effect.void)
        const answered = (i: number, outcome: Exit.Exit<SubmitOutcome>) => {
          onOutcome(i, outcome)
          if (--left === 0) resume(Effect.void)
        }
        smses.forEach((sms, i) =>
          client.submit(sms).then(
            (out) => answered(i, Exit.succeed(out)),
            (e) => answered(i, Exit.die(e))
          )
        )
      })
    return {
      id: config.id,
      client,
      partCount: (sms) => partCount(sms.text, sms.encoding),
      submit: (sms) => Effect.promise(() => client.submit(sms)),
      submitMany,
      query: (id) => Effect.promise(() => client.query(id)),
      bound: () => client.isBound
    }
  })

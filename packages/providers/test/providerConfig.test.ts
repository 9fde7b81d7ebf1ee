/**
 * A provider row's config is decoded before its carrier adapter starts (ProvidersFromStore): the
 * admin API stores any JSON object, so an absent or null optional field takes its default and a
 * number written as a string is read as that number; a config without what the adapter needs is
 * refused (the provider is logged and not started) instead of reaching the adapter unchecked.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import { decodeSimulatedConfig, decodeSmppConfig } from "../src/ProvidersFromStore.js"

describe("provider configs", () => {
  it.effect("null optional fields are absent and numbers may be strings", () =>
    Effect.gen(function*() {
      const simulated = yield* decodeSimulatedConfig({ latencyMs: "5", receiptDelayMs: null, down: false, extra: 1 })
      expect(simulated).toEqual({ latencyMs: 5, down: false })
      const smpp = yield* decodeSmppConfig({
        host: "127.0.0.1",
        port: "2775",
        systemId: "tuma",
        password: "secret",
        systemType: null,
        window: 10
      })
      expect(smpp).toEqual({ host: "127.0.0.1", port: 2775, systemId: "tuma", password: "secret", window: 10 })
    }))

  it.effect("the console's snake_case config (system_id) is the adapter's systemId", () =>
    Effect.gen(function*() {
      const smpp = yield* decodeSmppConfig({ host: "smsc.example", port: 2775, system_id: "tuma", password: "pw" })
      expect(smpp).toEqual({ host: "smsc.example", port: 2775, systemId: "tuma", password: "pw" })
    }))

  it.effect("a config the adapter cannot run with is refused", () =>
    Effect.gen(function*() {
      expect(Either.isLeft(yield* Effect.either(decodeSmppConfig({ port: 2775, systemId: "tuma", password: "x" }))))
        .toBe(true)
      expect(
        Either.isLeft(yield* Effect.either(decodeSmppConfig({ host: "h", port: "many", systemId: "t", password: "x" })))
      )
        .toBe(true)
      expect(Either.isLeft(yield* Effect.either(decodeSimulatedConfig({ mix: { delivered: "all" } })))).toBe(true)
    }))
})

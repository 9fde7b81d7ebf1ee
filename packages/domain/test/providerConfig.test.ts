/**
 * A carrier's settings: Tuma refuses, field by field, an smpp carrier it could not start (no host,
 * no system ID, a port out of range); the API's snake_case names are read as the settings' own, so
 * what the console writes (`system_id`) starts.
 */
import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import { providerConfigErrors, settingsFields, SmppSettings } from "../src/index.js"

describe("provider settings", () => {
  it("an smpp carrier without host or credentials is refused on each missing field", () => {
    expect(providerConfigErrors("smpp", {})).toEqual({
      "config.host": ["The field is required."],
      "config.port": ["The field is required."],
      "config.systemId": ["The field is required."],
      "config.password": ["The field is required."]
    })
    expect(providerConfigErrors("smpp", { host: " ", port: 70000, system_id: "tuma", password: "" })).toEqual({
      "config.host": ["The field is required."],
      "config.port": ["The port must be an integer from 1 to 65535."]
    })
  })

  it("a rate per bind is a whole number of submits per second, at least 1", () => {
    const base = { host: "smsc.example", port: 2775, system_id: "tuma", password: "pw" }
    for (const bad of [0, -5, 2.5, "fast"]) {
      expect(providerConfigErrors("smpp", { ...base, max_per_second_per_bind: bad }), String(bad)).toHaveProperty([
        "config.maxPerSecondPerBind"
      ])
    }
    const decoded = Schema.decodeUnknownEither(SmppSettings)(
      settingsFields({ ...base, max_per_second_per_bind: "500" })
    )
    expect(Either.getOrThrow(decoded)).toMatchObject({ maxPerSecondPerBind: 500 })
  })

  it("what the console writes (snake_case) is a startable smpp config; simulated needs nothing", () => {
    const console = { host: "smsc.example", port: "2775", system_id: "tuma", password: "pw", enquire_link_ms: 15000 }
    expect(providerConfigErrors("smpp", console)).toEqual({})
    const decoded = Schema.decodeUnknownEither(SmppSettings)(settingsFields(console))
    expect(Either.getOrThrow(decoded)).toMatchObject({ systemId: "tuma", port: 2775, enquireLinkMs: 15000 })
    // camelCase wins when both are given
    expect(settingsFields({ system_id: "a", systemId: "b" })).toEqual({ systemId: "b" })
    expect(providerConfigErrors("simulated", {})).toEqual({})
    expect(providerConfigErrors("simulated", { latencyMs: "slow" })).not.toEqual({})
  })
})

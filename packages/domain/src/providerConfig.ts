/**
 * What a carrier connection's settings must hold for Tuma to start it, by kind — the one home of the
 * rule: the operator surfaces refuse a provider they could not start (422 on `config.<field>`, core
 * `Admin.createProvider`), and the delivery workers decode the stored settings with the same
 * schemas (`@tuma/providers` ProvidersFromStore). An absent or null optional field takes its
 * default; a number may be written as a string (the admin API stores any JSON object).
 *
 *   SimulatedSettings, SmppSettings — the schemas of the two kinds
 *   settingsFields(config)          — snake_case names (as the API writes them) read as camelCase
 *   providerConfigErrors(kind, config) — the field errors of a config, `config.`-prefixed (none: `{}`)
 */
import { Either, ParseResult, Schema } from "effect"

const Num = Schema.Union(Schema.Number, Schema.NumberFromString)
const exact = <S extends Schema.Schema.Any>(schema: S) => Schema.optionalWith(schema, { exact: true, nullable: true })
const Required = Schema.Trim.pipe(Schema.nonEmptyString({ message: () => "The field is required." }))

/** A `simulated` carrier's settings (all optional). */
export const SimulatedSettings = Schema.Struct({
  latencyMs: exact(Num),
  receiptDelayMs: exact(Num),
  mix: exact(Schema.Struct({
    delivered: exact(Num),
    failed: exact(Num),
    refusedTransient: exact(Num),
    refusedPermanent: exact(Num),
    unknown: exact(Num)
  })),
  down: exact(Schema.Boolean)
})

/** An `smpp` carrier's settings: where it is and how to bind (required), and the tuning (optional). */
export const SmppSettings = Schema.Struct({
  host: Required,
  port: Num.pipe(Schema.filter((n) => Number.isInteger(n) && n >= 1 && n <= 65_535, {
    message: () => "The port must be an integer from 1 to 65535."
  })),
  systemId: Required,
  password: Schema.String,
  systemType: exact(Schema.String),
  window: exact(Num),
  maxPerSecondPerBind: exact(Num.pipe(Schema.filter((n) => Number.isInteger(n) && n >= 1 && n <= 100_000, {
    message: () => "The rate per bind must be an integer from 1 to 100000 submits per second."
  }))),
  enquireLinkMs: exact(Num),
  responseTimeoutMs: exact(Num),
  unavailableAfterMs: exact(Num),
  reconnectInitialMs: exact(Num),
  reconnectMaxMs: exact(Num),
  throttleInitialMs: exact(Num),
  throttleMaxMs: exact(Num),
  throttleGiveUpMs: exact(Num),
  registeredDelivery: exact(Schema.Boolean),
  transientStatuses: exact(Schema.Array(Num))
})

/**
 * The settings as stored, with the API's snake_case names read as the settings' own (`system_id` →
 * `systemId`, `enquire_link_ms` → `enquireLinkMs`, …): the console and the admin API write snake_case,
 * older configs camelCase; a camelCase field wins when both are given.
 */
export const settingsFields = (config: unknown): unknown => {
  if (typeof config !== "object" || config === null || Array.isArray(config)) return config
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(config)) {
    const camel = k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())
    if (camel === k || !(camel in config)) out[camel] = v
  }
  return out
}

const validators: Record<string, (u: unknown) => Either.Either<unknown, ParseResult.ParseError>> = {
  simulated: Schema.decodeUnknownEither(SimulatedSettings),
  smpp: Schema.decodeUnknownEither(SmppSettings, { errors: "all" })
}

/**
 * The field errors of a carrier's settings for its kind: `{ "config.host": ["The field is
 * required."] }`; `{}` when Tuma can start it (or the kind is not one it knows: the kind's own check).
 */
export const providerConfigErrors = (kind: string, config: unknown): Record<string, Array<string>> => {
  const validate = validators[kind]
  if (validate === undefined) return {}
  const decoded = validate(settingsFields(config ?? {}))
  if (Either.isRight(decoded)) return {}
  const errors: Record<string, Array<string>> = {}
  for (const issue of ParseResult.ArrayFormatter.formatErrorSync(decoded.left)) {
    const path = ["config", ...issue.path.map(String)].join(".")
    const message = issue._tag === "Missing" ? "The field is required." : issue.message
    ;(errors[path] ??= []).push(message)
  }
  return errors
}

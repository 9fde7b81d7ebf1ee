/**
 * Rows decoded by Schema: what every SQL adapter reads goes through a Schema of its row, never a
 * hand-written interface asserted onto the driver's answer.
 *
 * - `rowOf<PortRow>()(Schema.Struct({ … }))` ties a row Schema to the port's row type at compile
 *   time: the decoded type must be exactly the port's (a missing, extra or differently typed
 *   column does not compile).
 * - `rowsOf<PortRow>()(schema)` (checked as `rowOf`) or `decoders(schema)`: a row type's four
 *   decoders under one name, `Markets.all(sql…)`, `Markets.one(sql…)`.
 * - `findAll` / `findOne` / `findFirst` / `single` decode a statement's rows with a decoder built
 *   once, at module load: the decode half of `@effect/sql`'s `SqlSchema.findAll/findOne/single`,
 *   without its request half. The statements are assembled from fragments (optional filters,
 *   `sql.literal` column lists, `unnest` arrays) over parameters that are already typed values, so a
 *   request Schema per statement would encode nothing and check nothing.
 * - A row that does not match its Schema fails with a `ParseError`; the adapters turn it into a
 *   defect with the SQL errors (`Effect.orDie`): it is a schema drift, not a domain failure.
 *
 * Column types as both drivers answer them: `timestamptz` → `Date` (`Schema.DateFromSelf`), `int`
 * → number, `bigint`/`count(*)`/`sum` → string (`Count`), `json`/`jsonb` → parsed JSON (a
 * timestamp inside JSON is a string: `Schema.Date`).
 */
import type { AccountRow, ApiKeyRow, LedgerRow, MarketRow, SenderIdRow } from "@tuma/core"
import type { ParseResult } from "effect"
import { Effect, Option, Schema } from "effect"

/**
 * `rowOf<PortRow>()(schema)`: `schema` itself, accepted only when it decodes to exactly `PortRow`.
 */
export const rowOf =
  <A>() => <S extends Schema.Schema.AnyNoContext>(schema: S & Schema.Schema<A, Schema.Schema.Encoded<S>>): S => schema

/** A count or sum: `bigint` answers (strings, on both drivers) and `int` answers alike, as a number. */
export const Count: Schema.Schema<number, string | number> = Schema.Union(Schema.Number, Schema.NumberFromString)

/** A nullable `timestamptz` column. */
export const NullableDate = Schema.NullOr(Schema.DateFromSelf)
/** A nullable text column. */
export const NullableString = Schema.NullOr(Schema.String)

type Rows<E, R> = Effect.Effect<ReadonlyArray<unknown>, E, R>

/** Every row of a statement, decoded (decoder built once). */
export const findAll = <A, I>(schema: Schema.Schema<A, I>) => {
  const decode = Schema.decodeUnknown(Schema.Array(schema))
  return <E, R>(rows: Rows<E, R>): Effect.Effect<ReadonlyArray<A>, E | ParseResult.ParseError, R> =>
    Effect.flatMap(rows, decode)
}

/** The first row of a statement, decoded, as an `Option` (decoder built once). */
export const findOne = <A, I>(schema: Schema.Schema<A, I>) => {
  const decode = Schema.decodeUnknown(schema)
  return <E, R>(rows: Rows<E, R>): Effect.Effect<Option.Option<A>, E | ParseResult.ParseError, R> =>
    Effect.flatMap(rows, (all) => all.length === 0 ? Effect.succeedNone : Effect.asSome(decode(all[0])))
}

/** The first row of a statement, decoded, or `undefined` when there is none (decoder built once). */
export const findFirst = <A, I>(schema: Schema.Schema<A, I>) => {
  const one = findOne(schema)
  return <E, R>(rows: Rows<E, R>): Effect.Effect<A | undefined, E | ParseResult.ParseError, R> =>
    Effect.map(one(rows), Option.getOrUndefined)
}

/**
 * The one row of a statement that always answers one (`RETURNING` of an upsert, an aggregate),
 * decoded; no row is a defect (decoder built once).
 */
export const single = <A, I>(schema: Schema.Schema<A, I>) => {
  const one = findOne(schema)
  return <E, R>(rows: Rows<E, R>): Effect.Effect<A, E | ParseResult.ParseError, R> =>
    Effect.flatMap(
      one(rows),
      Option.match({ onNone: () => Effect.dieMessage("the statement answered no row"), onSome: Effect.succeed })
    )
}

/**
 * A row Schema's decoders, each built once: `all` rows, `one` (the first, as an `Option`), `first`
 * (or `undefined`) and `single` (the row a statement always answers). One name per row type, as
 * `Markets.all(sql…)` / `Markets.one(sql…)`.
 */
export const decoders = <A, I>(schema: Schema.Schema<A, I>) => ({
  schema,
  all: findAll(schema),
  one: findOne(schema),
  first: findFirst(schema),
  single: single(schema)
})

/** `rowsOf<PortRow>()(schema)`: the `decoders` of `schema`, accepted only when it decodes to exactly `PortRow`. */
export const rowsOf =
  <A>() => <S extends Schema.Schema.AnyNoContext>(schema: S & Schema.Schema<A, Schema.Schema.Encoded<S>>) =>
    decoders<A, Schema.Schema.Encoded<S>>(schema)

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Whether `id` casts to `uuid` (an id that does not matches no row, and would fail the statement). */
export const isUuid = (id: string): boolean => UUID.test(id)

// Rows shared by several adapters ------------------------------------------------------------

/** `markets` (id, iso2, calling_code, name, open). */
export const MarketRowSchema = rowOf<MarketRow>()(Schema.Struct({
  id: Schema.String,
  iso2: Schema.String,
  calling_code: Schema.String,
  name: Schema.String,
  open: Schema.Boolean
}))

/** `accounts.*`. */
export const AccountRowSchema = rowOf<AccountRow>()(Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  email: Schema.String,
  phone: NullableString,
  phone_verified_at: NullableDate,
  country_id: NullableString,
  active: Schema.Boolean,
  created_at: Schema.DateFromSelf,
  updated_at: Schema.DateFromSelf
}))

/** `api_keys.*`. */
export const ApiKeyRowSchema = rowOf<ApiKeyRow>()(Schema.Struct({
  id: Schema.String,
  account_id: Schema.String,
  name: Schema.String,
  key_hash: Schema.String,
  prefix: Schema.String,
  mode: Schema.Literal("live", "test"),
  scopes: Schema.Array(Schema.String),
  allowed_ips: Schema.Array(Schema.String),
  expires_at: NullableDate,
  revoked_at: NullableDate,
  last_used_at: NullableDate,
  created_at: Schema.DateFromSelf
}))

/** A sender-ID status as stored. */
export const SenderIdStatusSchema = Schema.Literal("pending", "approved", "rejected", "suspended")

/** `sender_ids` as the operator store answers it. */
export const SenderIdRowSchema = rowOf<SenderIdRow>()(Schema.Struct({
  id: Schema.String,
  account_id: Schema.String,
  market_id: Schema.String,
  name: Schema.String,
  display_name: Schema.String,
  status: SenderIdStatusSchema,
  is_default: Schema.Boolean,
  is_global: Schema.Boolean,
  sample_message: Schema.String,
  purpose: NullableString,
  requested_at: Schema.DateFromSelf,
  updated_at: Schema.DateFromSelf
}))

/** A wallet ledger entry (`WalletCredit.LEDGER`). */
export const LedgerRowSchema = rowOf<LedgerRow>()(Schema.Struct({
  id: Schema.String,
  wallet_id: Schema.String,
  iso2: Schema.String,
  kind: Schema.Literal("purchase", "debit", "refund", "adjustment"),
  units: Schema.Number,
  balance_after: Schema.Number,
  amount: NullableString,
  currency: NullableString,
  message_id: NullableString,
  campaign_id: NullableString,
  reference: NullableString,
  reason: NullableString,
  corrects_id: NullableString,
  created_at: Schema.DateFromSelf
}))

/** A row of one `id` column (`RETURNING id`). */
export const IdRow = Schema.Struct({ id: Schema.String })

/** `webhook_attempts` rows as their readers select them (the admin's attempts, the portal's attempt log). */
export const WebhookAttempts = decoders(Schema.Struct({
  delivery_id: Schema.String,
  attempt: Schema.Number,
  attempted_at: Schema.DateFromSelf,
  outcome: Schema.Literal("success", "failure"),
  response_status: Schema.NullOr(Schema.Number),
  latency_ms: Schema.Number,
  error: NullableString
}))

// The decoders of those shared rows ------------------------------------------------------------

export const Markets = decoders(MarketRowSchema)
export const Accounts = decoders(AccountRowSchema)
export const ApiKeys = decoders(ApiKeyRowSchema)
export const LedgerEntries = decoders(LedgerRowSchema)
export const Ids = decoders(IdRow)

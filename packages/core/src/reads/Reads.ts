/**
 * `Reads`: the read use cases of the public API — list messages (spec §4.3, meta of §2.3), read one
 * message (§4.4), balance (§4.1, §2.5) and the account profile (§4.10, §2.8). No HTTP here: the
 * caller passes the authenticated account id and the decoded query; the answer is the response
 * `data` (and `meta`) ready for the envelope.
 *
 * - List: filters `status`, `channel`, `from`/`to` (calendar dates, inclusive, UTC days), newest
 *   first; `per_page` default 50, clamped to 1..100; `page` from 1. `last_page` is at least 1.
 * - One message: only the account's own; anything else (another account's, unknown) is
 *   `MessageNotFound` with the text of spec §4.4.
 * - Balance: string figures; the total and the `countries` list cover enabled wallets only.
 * - Sandbox answers (synthetic, nothing read) are `sandboxBalance` and `sandboxMessage`; the
 *   `…Of(caller, …)` methods pick them for a test-mode caller (spec §2.2, §2.5, decisions §12), on
 *   Effect's `Clock`, so a backend that embeds core answers exactly as the REST service does.
 */
import type { ValidationFailed } from "@tuma/domain"
import { isIsoDate, MessageNotFound, PER_PAGE_DEFAULT, PER_PAGE_MAX, validationFailed } from "@tuma/domain"
import { Clock, Context, Effect, Either, Layer, Option } from "effect"
import type { MessageEntry } from "../MessageEntry.js"
import { messageEntry } from "../MessageEntry.js"
import type { MessageListFilter } from "../ports/ReadStore.js"
import { ReadStore } from "../ports/ReadStore.js"
import type { Channel, MessageStatus } from "../ports/SendStore.js"

/** Filters and paging of the message list (spec §4.3) as the caller gave them; validated by `Reads.listMessages`. */
export interface ListMessagesInput {
  readonly status?: MessageStatus | undefined
  readonly channel?: Channel | undefined
  /** Only the messages of this campaign (a UUID). */
  readonly campaign_uid?: string | undefined
  /** `YYYY-MM-DD`: messages created on or after this UTC day. */
  readonly from?: string | undefined
  /** `YYYY-MM-DD`: messages created on or before this UTC day. */
  readonly to?: string | undefined
  readonly per_page?: number | undefined
  readonly page?: number | undefined
}

/** §2.3 */
export interface PageMeta {
  readonly current_page: number
  readonly per_page: number
  readonly total: number
  readonly last_page: number
}

/** One page of the message list and its `meta`. */
export interface MessagePage {
  readonly data: ReadonlyArray<MessageEntry>
  readonly meta: PageMeta
}

/** §2.5 live `data`. */
export interface Balance {
  readonly balance: string
  readonly currency: "SMS"
  readonly countries: ReadonlyArray<{
    readonly wallet_uid: string
    readonly country: string
    readonly calling_code: string | null
    readonly balance: string
  }>
}

/** §2.5 sandbox `data` (the envelope adds `mode: "sandbox"`). */
export const sandboxBalance = {
  wallet_uid: "sandbox_wallet",
  balance: 100000,
  currency: "SMS"
} as const

/** §2.2 last line: a sandbox read of any well-formed UUID (decisions §12). */
export const sandboxMessage = (uid: string, now: Date) => ({
  uid,
  status: "delivered" as const,
  delivered_at: now.toISOString()
})

/** A verified SMS route as listed by the profile (§2.8 `routes`; element shape ours). */
export interface ProfileRoute {
  readonly uid: string
  readonly country_uid: string
  readonly country: string
  readonly country_name: string
  readonly calling_code: string
  readonly phone: string
  readonly verified_at: string
}

/** §2.8 */
export interface Profile {
  readonly uid: string
  readonly name: string
  readonly email: string
  readonly phone: string | null
  readonly phone_verified_at: string | null
  readonly country: {
    readonly uid: string
    readonly iso2: string
    readonly calling_code: string
    readonly name: string
  } | null
  readonly balances: ReadonlyArray<{
    readonly wallet_uid: string
    readonly country_uid: string
    readonly country: string
    readonly calling_code: string | null
    readonly balance: number
    readonly currency: "SMS"
  }>
  readonly routes: ReadonlyArray<ProfileRoute>
}

/** The text of spec §4.4 for a foreign or unknown message. */
export const MESSAGE_NOT_FOUND_TEXT = "SMS message was not found for this API key."

const DAY_MS = 86_400_000
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Midnight UTC of a `YYYY-MM-DD` already checked with `isIsoDate`. */
const utcDay = (date: string): Date => new Date(`${date}T00:00:00.000Z`)

const clampInt = (n: number | undefined, fallback: number, min: number, max: number) =>
  n === undefined || !Number.isFinite(n) ? fallback : Math.min(max, Math.max(min, Math.floor(n)))

/**
 * The store filter and page for a list request: `from`/`to` must be calendar dates with `to` not
 * before `from` (422 otherwise, as the HTTP schema answers); `per_page`/`page` are clamped.
 */
export const listRequest = (
  accountId: string,
  input: ListMessagesInput
): Either.Either<
  { readonly filter: MessageListFilter; readonly perPage: number; readonly page: number },
  ValidationFailed
> => {
  const errors: Record<string, Array<string>> = {}
  for (const field of ["from", "to"] as const) {
    const value = input[field]
    if (value !== undefined && !isIsoDate(value)) {
      errors[field] = [`The ${field} field must be a valid date (YYYY-MM-DD).`]
    }
  }
  if (input.campaign_uid !== undefined && !UUID.test(input.campaign_uid)) {
    errors.campaign_uid = ["The campaign_uid field must be a valid UUID."]
  }
  if (Object.keys(errors).length === 0 && input.from !== undefined && input.to !== undefined && input.to < input.from) {
    errors.to = ["The to field must be a date after or equal to from."]
  }
  if (Object.keys(errors).length > 0) return Either.left(validationFailed(errors))
  const perPage = clampInt(input.per_page, PER_PAGE_DEFAULT, 1, PER_PAGE_MAX)
  const page = clampInt(input.page, 1, 1, Number.MAX_SAFE_INTEGER)
  const filter: MessageListFilter = {
    accountId,
    status: input.status,
    channel: input.channel,
    campaignId: input.campaign_uid,
    createdFrom: input.from === undefined ? undefined : utcDay(input.from),
    createdBefore: input.to === undefined ? undefined : new Date(utcDay(input.to).getTime() + DAY_MS)
  }
  return Either.right({ filter, perPage, page })
}

/** Who reads: the account and the mode of its API key (a test key gets the sandbox answers). */
export interface ReadCaller {
  readonly accountId: string
  readonly mode: "live" | "test"
}

/** A read's `data` (and `meta`), and whether it is a sandbox answer (the envelope adds `mode: "sandbox"`). */
export interface ReadOutcome<A> {
  readonly data: A
  readonly sandbox: boolean
}

/** A live answer `A`, or the sandbox answer `S` of a test key. */
export type LiveOrSandbox<A, S> =
  | { readonly data: A; readonly sandbox: false }
  | { readonly data: S; readonly sandbox: true }

/** §2.5 sandbox `data`. */
export type SandboxBalance = typeof sandboxBalance
/** decisions §12 sandbox `data` of one message. */
export type SandboxMessage = ReturnType<typeof sandboxMessage>

/** The read use cases: message list and one message, balance, profile. `Reads.layer` needs a `ReadStore`. */
export class Reads extends Context.Tag("@tuma/core/Reads")<Reads, {
  readonly listMessages: (accountId: string, input: ListMessagesInput) => Effect.Effect<MessagePage, ValidationFailed>
  readonly getMessage: (accountId: string, messageId: string) => Effect.Effect<MessageEntry, MessageNotFound>
  readonly balance: (accountId: string) => Effect.Effect<Balance>
  readonly profile: (accountId: string) => Effect.Effect<Profile>
  /** §4.3 for a caller: a test key reads an empty page. */
  readonly messagesOf: (
    caller: ReadCaller,
    input: ListMessagesInput
  ) => Effect.Effect<ReadOutcome<MessagePage>, ValidationFailed>
  /** §4.4 for a caller: a test key reads any UUID as delivered now (decisions §12). */
  readonly messageOf: (
    caller: ReadCaller,
    messageId: string
  ) => Effect.Effect<LiveOrSandbox<MessageEntry, SandboxMessage>, MessageNotFound>
  /** §4.1 for a caller: a test key reads `sandboxBalance`. */
  readonly balanceOf: (caller: ReadCaller) => Effect.Effect<LiveOrSandbox<Balance, SandboxBalance>>
  /** §4.10 for a caller: the account's profile in either mode. */
  readonly profileOf: (caller: ReadCaller) => Effect.Effect<ReadOutcome<Profile>>
}>() {
  static readonly layer: Layer.Layer<Reads, never, ReadStore> = Layer.effect(
    Reads,
    Effect.map(ReadStore, (store) => {
      const reads = makeReads(store)
      const live = <A, E>(self: Effect.Effect<A, E>) => Effect.map(self, (data) => ({ data, sandbox: false as const }))
      const sandbox = <A>(data: A) => Effect.succeed({ data, sandbox: true as const })
      return Reads.of({
        ...reads,
        messagesOf: (caller, input) =>
          caller.mode === "test"
            ? sandbox({
              data: [],
              meta: {
                current_page: input.page ?? 1,
                per_page: input.per_page ?? PER_PAGE_DEFAULT,
                total: 0,
                last_page: 1
              }
            })
            : live(reads.listMessages(caller.accountId, input)),
        messageOf: (caller, messageId) =>
          caller.mode === "test"
            ? Effect.map(Clock.currentTimeMillis, (now) => ({
              data: sandboxMessage(messageId, new Date(now)),
              sandbox: true as const
            }))
            : live(reads.getMessage(caller.accountId, messageId)),
        balanceOf: (caller) => caller.mode === "test" ? sandbox(sandboxBalance) : live(reads.balance(caller.accountId)),
        profileOf: (caller) =>
          Effect.map(reads.profile(caller.accountId), (data) => ({ data, sandbox: caller.mode === "test" }))
      })
    })
  )
}

const makeReads = (
  store: ReadStore["Type"]
): Pick<Reads["Type"], "listMessages" | "getMessage" | "balance" | "profile"> => ({
  listMessages: (accountId, input) =>
    Effect.flatMap(Effect.suspend(() => listRequest(accountId, input)), ({ filter, page, perPage }) =>
      Effect.all([
        store.listMessages({ ...filter, limit: perPage, offset: (page - 1) * perPage }),
        store.countMessages(filter)
      ], { concurrency: 2 }).pipe(
        Effect.map(([rows, total]) => ({
          data: rows.map(messageEntry),
          meta: {
            current_page: page,
            per_page: perPage,
            total,
            last_page: Math.max(1, Math.ceil(total / perPage))
          }
        }))
      )),
  getMessage: (accountId, messageId) =>
    (UUID.test(messageId) ? store.findMessage(accountId, messageId) : Effect.succeedNone).pipe(
      Effect.flatMap(Option.match({
        onNone: () => Effect.fail(new MessageNotFound({ message: MESSAGE_NOT_FOUND_TEXT })),
        onSome: (row) => Effect.succeed(messageEntry(row))
      }))
    ),
  balance: (accountId) =>
    Effect.map(store.wallets(accountId), (wallets) => {
      const enabled = wallets.filter((w) => w.enabled)
      return {
        balance: String(enabled.reduce((sum, w) => sum + w.balance, 0)),
        currency: "SMS" as const,
        countries: enabled.map((w) => ({
          wallet_uid: w.id,
          country: w.iso2,
          calling_code: w.calling_code,
          balance: String(w.balance)
        }))
      }
    }),
  profile: (accountId) =>
    Effect.all([store.profile(accountId), store.wallets(accountId), store.verifiedRoutes(accountId)], {
      concurrency: 3
    }).pipe(
      Effect.flatMap(([profile, wallets, routes]) =>
        Option.match(profile, {
          onNone: () => Effect.dieMessage(`Reads.profile: account ${accountId} does not exist`),
          onSome: (p): Effect.Effect<Profile> =>
            Effect.succeed({
              uid: p.id,
              name: p.name,
              email: p.email,
              phone: p.phone,
              phone_verified_at: p.phone_verified_at?.toISOString() ?? null,
              country: p.country === null
                ? null
                : {
                  uid: p.country.id,
                  iso2: p.country.iso2,
                  calling_code: p.country.calling_code,
                  name: p.country.name
                },
              balances: wallets.filter((w) => w.enabled).map((w) => ({
                wallet_uid: w.id,
                country_uid: w.market_id,
                country: w.iso2,
                calling_code: w.calling_code,
                balance: w.balance,
                currency: "SMS" as const
              })),
              routes: routes.map((r) => ({
                uid: r.id,
                country_uid: r.market_id,
                country: r.iso2,
                country_name: r.market_name,
                calling_code: r.calling_code,
                phone: r.phone,
                verified_at: r.verified_at.toISOString()
              }))
            })
        })
      )
    )
})

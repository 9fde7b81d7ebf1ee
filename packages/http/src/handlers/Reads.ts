/**
 * What the read endpoints need from core (balance §2.5, messages §4.3–4.4, profile §2.8), as one
 * service the handlers use. `Reads.layer` wires it to core's use cases.
 */
import type { MessageEntry } from "@tuma/core"
import type { ListMessagesQuery, MessageNotFound } from "@tuma/domain"
import type { Effect } from "effect"
import { Context } from "effect"
import type { AuthenticatedKey } from "../Security.js"

export interface LiveBalance {
  readonly balance: string
  readonly currency: "SMS"
  readonly countries: ReadonlyArray<{
    readonly wallet_uid: string
    readonly country: string
    readonly calling_code: string | null
    readonly balance: string
  }>
}

export interface MessagePage {
  readonly data: ReadonlyArray<MessageEntry>
  readonly meta: {
    readonly current_page: number
    readonly per_page: number
    readonly total: number
    readonly last_page: number
  }
}

export interface ProfileData {
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
  readonly routes: ReadonlyArray<unknown>
}

export class Reads extends Context.Tag("@tuma/http/Reads")<Reads, {
  readonly balance: (accountId: string) => Effect.Effect<LiveBalance>
  readonly listMessages: (key: AuthenticatedKey, query: ListMessagesQuery) => Effect.Effect<MessagePage>
  readonly getMessage: (key: AuthenticatedKey, uid: string) => Effect.Effect<MessageEntry, MessageNotFound>
  readonly profile: (accountId: string) => Effect.Effect<ProfileData>
}>() {}

/**
 * Fixtures of the read / sender-ID / admin / API-key contract suites: the services over one
 * database, an account set up through `Admin` (as an operator would), and direct message rows
 * (the reads are under test here, not the sends).
 */
import { SqlClient } from "@effect/sql"
import { Ids, Operator } from "@tuma/core"
import { Admin as AdminTag } from "@tuma/core"
import { Reads as ReadsTag } from "@tuma/core"
import { SenderIds as SenderIdsTag } from "@tuma/core"
import { Effect, Layer } from "effect"
import * as SqlAdminStore from "../src/SqlAdminStore.js"
import * as SqlApiKeys from "../src/SqlApiKeys.js"
import * as SqlOperatorStore from "../src/SqlOperatorStore.js"
import * as SqlReadStore from "../src/SqlReadStore.js"
import * as SqlSenderIdStore from "../src/SqlSenderIdStore.js"

export const operatorStack = (db: Layer.Layer<SqlClient.SqlClient>) =>
  Layer.mergeAll(ReadsTag.layer, SenderIdsTag.layer, AdminTag.layer, Operator.layer, SqlApiKeys.layer).pipe(
    Layer.provideMerge(
      Layer.mergeAll(SqlReadStore.layer, SqlSenderIdStore.layer, SqlAdminStore.layer, SqlOperatorStore.layer)
    ),
    Layer.provideMerge(Ids.layer),
    Layer.provideMerge(db)
  )

let counter = 0
export const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${(counter++).toString(36)}`

/** A new account (TZ), optionally with purchases and verified routes. */
export const newAccount = (options: {
  readonly purchases?: Record<string, number>
  readonly routes?: ReadonlyArray<string>
} = {}) =>
  Effect.gen(function*() {
    const admin = yield* AdminTag
    const account = yield* admin.createAccount({
      name: "Acme Ltd",
      email: `${unique("ops")}@example.com`,
      phone: "+255712000001",
      phone_verified: true
    })
    for (const [country, units] of Object.entries(options.purchases ?? {})) {
      yield* admin.purchaseCredits({
        account_uid: account.uid,
        country,
        units,
        amount: `${units * 20}.00`,
        currency: "TZS"
      })
    }
    for (const country of options.routes ?? []) {
      yield* admin.verifyRoute({ account_uid: account.uid, country, phone: "+255712000001" })
    }
    return account
  })

export interface SeedMessage {
  readonly accountId: string
  readonly createdAt: Date
  readonly status?: "scheduled" | "queued" | "processing" | "sent" | "delivered" | "failed"
  readonly channel?: "api" | "web"
  readonly recipient?: string
  readonly campaignId?: string | null
  readonly id?: string
}

/** Writes one message row directly (TZ market) and answers its id. */
export const seedMessage = (m: SeedMessage) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const ids = yield* Ids
    const id = m.id ?? (yield* ids.uuidV4)
    const [market] = yield* sql<{ id: string }>`SELECT id FROM markets WHERE iso2 = 'TZ'`
    yield* sql`INSERT INTO messages ${
      sql.insert({
        id,
        account_id: m.accountId,
        campaign_id: m.campaignId ?? null,
        market_id: market.id,
        country: "TZ",
        recipient: m.recipient ?? "+255712345678",
        sender_id: "TUMA",
        text: "Hello",
        encoding: "GSM-7",
        parts: 1,
        units: 1,
        channel: m.channel ?? "api",
        status: m.status ?? "queued",
        created_at: m.createdAt,
        queued_at: m.createdAt,
        updated_at: m.createdAt
      })
    }`
    return id
  })

/** A campaign row (for the `campaign_uid`/`campaign_name` of message entries). */
export const seedCampaign = (accountId: string, name: string, at: Date) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const id = yield* (yield* Ids).uuidV4
    yield* sql`INSERT INTO campaigns ${
      sql.insert({
        id,
        account_id: accountId,
        api_version: "v2",
        name,
        sender_id: "TUMA",
        status: "queued",
        recipient_count: 1,
        queued_count: 1,
        failed_count: 0,
        units: 1,
        scheduled_at: null,
        created_at: at,
        updated_at: at
      })
    }`
    return id
  })

// --- documents by their magic bytes -------------------------------------------------------------

export const PDF = (size = 64) => {
  const b = new Uint8Array(size)
  b.set([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x34])
  return b
}
export const PNG = (size = 64) => {
  const b = new Uint8Array(size)
  b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  return b
}
export const JPEG = (size = 64) => {
  const b = new Uint8Array(size)
  b.set([0xff, 0xd8, 0xff, 0xe0])
  return b
}
export const TEXT = (size = 64) => new TextEncoder().encode("just some text, not a document".padEnd(size, "."))

export const SAMPLE = "Your order 1234 is ready for collection at our Kariakoo branch until 6pm today."

/**
 * Fixtures of the read / sender-ID / admin / API-key contract suites: the services per driver (the
 * SQL adapters over one database, or core's memory adapters; the API-key look-up `ApiKeys` is
 * SQL-only, `apiKeys.test.ts` adds it), an account set up through `Admin`
 * (as an operator would), and direct message rows (the reads are under test here, not the sends).
 */
import type { AdminStore, AuditStore, OperatorStore, ReadStore, SenderIdStore } from "@tuma/core"
import { Admin as AdminTag, Ids, Memory, Operator, Reads as ReadsTag, SenderIds as SenderIdsTag } from "@tuma/core"
import { Effect, Layer } from "effect"
import * as SqlAdminStore from "../src/SqlAdminStore.js"
import * as SqlAuditStore from "../src/SqlAuditStore.js"
import * as SqlOperatorStore from "../src/SqlOperatorStore.js"
import * as SqlReadStore from "../src/SqlReadStore.js"
import * as SqlSenderIdStore from "../src/SqlSenderIdStore.js"
import type { DriverLayers } from "./harness.js"
import { Probe } from "./probe.js"

/** What the operator-side suites run over, on every driver. */
export type OperatorStack =
  | ReadsTag
  | SenderIdsTag
  | AdminTag
  | Operator
  | ReadStore
  | SenderIdStore
  | AdminStore
  | OperatorStore
  | AuditStore
  | Ids
  | Probe

const services = Layer.mergeAll(ReadsTag.layer, SenderIdsTag.layer, AdminTag.layer, Operator.layer)

/** The operator-side services on core's memory adapters, with every memory port and the `MemoryDatabase`. */
export const operatorMemory = () =>
  services.pipe(
    Layer.provideMerge(Ids.layer),
    Layer.provideMerge(Probe.memory),
    Layer.provideMerge(Memory.layerMemory)
  )

export const operatorStack: DriverLayers<OperatorStack> = {
  sql: (db) =>
    services.pipe(
      Layer.provideMerge(
        Layer.mergeAll(
          SqlReadStore.layer,
          SqlSenderIdStore.layer,
          SqlAdminStore.layer,
          SqlOperatorStore.layer,
          SqlAuditStore.layer
        )
      ),
      Layer.provideMerge(Ids.layer),
      Layer.provideMerge(Probe.sql),
      Layer.provideMerge(db)
    ),
  memory: operatorMemory
}

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
    const id = m.id ?? (yield* (yield* Ids).uuidV4)
    yield* (yield* Probe).seedMessage({
      id,
      account_id: m.accountId,
      campaign_id: m.campaignId ?? null,
      recipient: m.recipient ?? "+255712345678",
      channel: m.channel ?? "api",
      status: m.status ?? "queued",
      created_at: m.createdAt
    })
    return id
  })

/** A campaign row (for the `campaign_uid`/`campaign_name` of message entries). */
export const seedCampaign = (accountId: string, name: string, at: Date) =>
  Effect.gen(function*() {
    const id = yield* (yield* Ids).uuidV4
    yield* (yield* Probe).seedCampaign({ id, account_id: accountId, name, created_at: at })
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

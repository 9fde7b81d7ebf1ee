import type { DispatchBatch } from "@tuma/core/ports/DispatchStore"
/**
 * Test fixtures shared by the contract suites: the full service stack per driver (the SQL adapters
 * over one database, or core's memory adapters), and an account set up for sending through the
 * `Operator` service (as an operator would).
 */
import type { SqlClient } from "@effect/sql"
import { Ids, Memory, Operator, Send } from "@tuma/core"
import type { ContentCounter, OperatorStore, SendCaller, SendStore } from "@tuma/core"
import { Effect, Layer } from "effect"
import * as SqlContentCounter from "../src/SqlContentCounter.js"
import * as SqlOperatorStore from "../src/SqlOperatorStore.js"
import * as SqlSendStore from "../src/SqlSendStore.js"
import type { DriverLayers } from "./harness.js"
import { Probe } from "./probe.js"

const services = Layer.mergeAll(Send.layer, Operator.layer)

/** What the send suites run over, on every driver. */
export type Stack = Send | Operator | SendStore | OperatorStore | ContentCounter | Ids | Probe

/**
 * The send stack per driver, plus `extra` services over the same store (the SQL adapters of other
 * ports and their probe; on memory, whatever `Memory.layerMemory` does not already give).
 */
export const stackWith = <R>(extra: {
  readonly sql: Layer.Layer<R, never, SqlClient.SqlClient>
  readonly memory: Layer.Layer<R, never, Memory.MemoryDatabase>
}): DriverLayers<Stack | R> => ({
  sql: (db) =>
    services.pipe(
      Layer.provideMerge(
        Layer.mergeAll(SqlSendStore.layer, SqlOperatorStore.layer, SqlContentCounter.layer, extra.sql)
      ),
      Layer.provideMerge(Ids.layer),
      Layer.provideMerge(Probe.sql),
      Layer.provideMerge(db)
    ),
  memory: () =>
    services.pipe(
      Layer.provideMerge(Ids.layer),
      Layer.provideMerge(Layer.merge(Probe.memory, extra.memory)),
      Layer.provideMerge(Memory.layerMemory)
    )
})

export const stack: DriverLayers<Stack> = stackWith({ sql: Layer.empty, memory: Layer.empty })

let counter = 0
export const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${(counter++).toString(36)}`

export interface AccountSetup {
  /** Wallet units per country (ISO2), purchased. Default { TZ: 1000 }. */
  readonly balances?: Record<string, number>
  /** Countries with a verified route. Default: the countries of `balances`. */
  readonly routes?: ReadonlyArray<string>
  /** Approved sender ID (per country of `routes`). Default "TUMA". */
  readonly sender?: string | null
  /** Provider credit per country. Default 1,000,000 for each country of `routes`. */
  readonly providerCredit?: Record<string, number> | null
  readonly active?: boolean
}

/** An account ready to send (every check of spec §1 passes), built with `Operator`. */
export const setupAccount = (setup: AccountSetup = {}) =>
  Effect.gen(function*() {
    const op = yield* Operator
    const balances = setup.balances ?? { TZ: 1000 }
    const routes = setup.routes ?? Object.keys(balances)
    const account = yield* op.createAccount({
      name: "Test Co",
      email: `${unique("a")}@example.com`,
      phone: "+255712000000"
    })
    const key = yield* op.issueApiKey({ accountId: account.id, mode: "live" })
    for (const [country, units] of Object.entries(balances)) {
      yield* op.purchaseCredits({ accountId: account.id, country, units, amount: String(units * 20), currency: "TZS" })
    }
    for (const country of routes) {
      yield* op.verifyRoute({ accountId: account.id, country, phone: "+255712000000" })
      if (setup.sender !== null) {
        yield* op.grantSenderId({ accountId: account.id, senderId: setup.sender ?? "Tuma", country })
      }
    }
    let providerId: string | null = null
    if (setup.providerCredit !== null) {
      const credit = setup.providerCredit ?? Object.fromEntries(routes.map((c) => [c, 1_000_000]))
      if (Object.keys(credit).length > 0) {
        const added = yield* op.addProvider({
          name: unique("p"),
          routes: Object.entries(credit).map(([country, c]) => ({ country, credit: c }))
        })
        providerId = added.id
      }
    }
    if (setup.active === false) yield* op.setAccountActive(account.id, false)
    const caller: SendCaller = { accountId: account.id, apiKeyId: key.id, mode: "live" }
    return { account, key, caller, providerId }
  })

/** Everything the store holds for an account, to prove what a send did or did not write. */
export const stateOf = (accountId: string) => Effect.flatMap(Probe, (probe) => probe.stateOf(accountId))

export const TZ1 = "+255712345678"
export const TZ2 = "+255713345678"
export const TZ3 = "+255714345678"
export const KE1 = "+254712345678"
/** n distinct valid Tanzanian mobile numbers. */
export const tzNumbers = (n: number, offset = 0) =>
  Array.from({ length: n }, (_, i) => `+25571${String(2000000 + offset + i).padStart(7, "0")}`)

/** A dispatch batch of `owner` at `now` with nothing in it (tests add what they apply). */
export const emptyBatch = (now: Date, owner: string): DispatchBatch => ({
  now,
  owner,
  sent: [],
  failed: [],
  requeued: [],
  creditReturns: [],
  receipts: [],
  lateAcceptances: [],
  optOuts: [],
  inbound: []
})

/**
 * Contract suite of the `SettingsChanges` port (decisions §30: an operator's change reaches every
 * cache): a change to a cached setting moves the version and wakes a subscriber, a write to a table
 * nothing caches does neither. `SqlSettingsChanges` on PGlite (in-process listen) and PostgreSQL
 * (LISTEN plus the poll), core's `MemorySettingsChanges` on the memory driver.
 */
import { expect } from "@effect/vitest"
import { Admin, Operator } from "@tuma/core"
import { SettingsChanges } from "@tuma/core/ports/SettingsChanges"
import { Clock, Effect, Layer, Option } from "effect"
import * as SqlSettingsChanges from "../src/SqlSettingsChanges.js"
import type { DriverLayers } from "./harness.js"
import { forEachDriver } from "./harness.js"
import type { OperatorStack } from "./operatorFixtures.js"
import { newAccount, operatorMemory, operatorStack } from "./operatorFixtures.js"

/**
 * The SQL adapter with its poll on the live clock (the suite's layer is built under `TestClock`, where
 * the poll would never run; on PostgreSQL the poll is what answers within the test's 5 s).
 */
const sqlSettings = Layer.scoped(
  SettingsChanges,
  SqlSettingsChanges.make({ pollMillis: 100 }).pipe(Effect.withClock(Clock.make()))
)

const stack: DriverLayers<OperatorStack | SettingsChanges> = {
  sql: (db, driver) => sqlSettings.pipe(Layer.provideMerge(Layer.merge(operatorStack.sql(db, driver), db))),
  memory: operatorMemory
}

/** Waits for the subscriber's next wake-up: `Some` when it came within 5 s. */
const woken = (next: Effect.Effect<void>) =>
  Effect.timeoutTo(next, { duration: "5 seconds", onTimeout: () => Option.none(), onSuccess: () => Option.some(true) })

forEachDriver(stack, (it) => {
  it.live("a change to a cached setting (an account switched off) moves the version and wakes a subscriber", () =>
    Effect.scoped(Effect.gen(function*() {
      const settings = yield* SettingsChanges
      const account = yield* newAccount()
      const next = yield* settings.subscribe
      const before = yield* settings.version
      yield* (yield* Operator).setAccountActive(account.uid, false)
      expect(yield* woken(next)).toEqual(Option.some(true))
      expect(yield* settings.version).not.toBe(before)
    })))

  it.live("a market opened, a provider added: each moves the version", () =>
    Effect.scoped(Effect.gen(function*() {
      const settings = yield* SettingsChanges
      const operator = yield* Operator
      const v0 = yield* settings.version
      yield* operator.setMarketOpen("KE", false)
      const v1 = yield* settings.version
      expect(v1).not.toBe(v0)
      yield* (yield* Admin).createProvider({ name: `p${Date.now().toString(36)}`, credits: [] })
      expect(yield* settings.version).not.toBe(v1)
    })))

  it.live("a credit purchase (wallets and ledger: nothing caches them) leaves the version as it was", () =>
    Effect.scoped(Effect.gen(function*() {
      const settings = yield* SettingsChanges
      const account = yield* newAccount()
      const before = yield* settings.version
      yield* (yield* Admin).purchaseCredits({
        account_uid: account.uid,
        country: "TZ",
        units: 100,
        amount: "2000.00",
        currency: "TZS"
      })
      expect(yield* settings.version).toBe(before)
    })))
})

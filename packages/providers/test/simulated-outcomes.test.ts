/**
 * The stateless pieces of the simulated carrier (src/simulated/outcomes.ts): the draw from the mix,
 * the bounded table of part states, the recording of receipts through either path of the sink.
 */
import { DeliveryReport } from "@tuma/core/ports/Provider"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { BoundedStates, pickOutcome, recordReceipts } from "../src/simulated/outcomes.js"

const receipt = (id: string) =>
  new DeliveryReport({
    providerId: "sim",
    providerMessageId: id,
    state: "delivered",
    deliveryStatus: "DELIVRD",
    errorCode: "000",
    receivedAt: new Date(0)
  })

describe("pickOutcome", () => {
  it("draws by relative weight; no weight at all is delivered", () => {
    const mix = { delivered: 1, failed: 1, unknown: 2 }
    expect(pickOutcome(mix, 0)).toBe("delivered")
    expect(pickOutcome(mix, 0.3)).toBe("failed")
    expect(pickOutcome(mix, 0.5)).toBe("unknown")
    expect(pickOutcome(mix, 0.99)).toBe("unknown")
    expect(pickOutcome({}, 0.5)).toBe("delivered")
    expect(pickOutcome({ refusedPermanent: 1 }, 0.5)).toBe("refusedPermanent")
  })
})

describe("BoundedStates", () => {
  it("keeps the newest entries, a re-set one counting as new", () => {
    const states = new BoundedStates(2)
    states.set("a", "enroute", "ENROUTE")
    states.set("b", "enroute", "ENROUTE")
    states.set("a", "delivered", "DELIVRD")
    states.set("c", "failed", "UNDELIV")
    expect(states.get("b")).toBeUndefined()
    expect(states.get("a")).toEqual({ state: "delivered", word: "DELIVRD" })
    expect(states.get("c")).toEqual({ state: "failed", word: "UNDELIV" })
  })
})

describe("recordReceipts", () => {
  it("answers the receipts the sink's effect failed to record", async () => {
    const sink = {
      handle: (e: DeliveryReport) => e.providerMessageId === "bad" ? Effect.fail("down") : Effect.void
    }
    const failed = await Effect.runPromise(
      recordReceipts(sink as never, [receipt("ok"), receipt("bad")])
    )
    expect(failed.map((e) => e.providerMessageId)).toEqual(["bad"])
  })

  it("uses the sink's callback path when it has one", async () => {
    const sink = {
      handle: () => Effect.die("not used"),
      offer: (e: DeliveryReport, done: (recorded: boolean) => void) =>
        setTimeout(() => done(e.providerMessageId !== "bad"), 1)
    }
    const failed = await Effect.runPromise(recordReceipts(sink as never, [receipt("bad"), receipt("ok")]))
    expect(failed.map((e) => e.providerMessageId)).toEqual(["bad"])
    expect(await Effect.runPromise(recordReceipts(sink as never, []))).toEqual([])
  })
})

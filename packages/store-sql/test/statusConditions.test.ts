/**
 * The status conditions render the domain's transition tables as SQL: the lists a statement
 * filters on, and the literal rendering (closed set of `[a-z_]+` statuses, anything else refused).
 */
import { describe, expect, it } from "@effect/vitest"
import {
  Campaign,
  CampaignTarget,
  inList,
  Message,
  MessageTarget,
  notInList,
  SenderId,
  targetOf
} from "../src/statusConditions.js"

describe("statusConditions", () => {
  it("derives each condition from the tables", () => {
    expect(Message).toEqual({
      claimable: ["queued", "processing"],
      awaitingSubmission: ["queued", "processing"],
      releasable: ["processing"],
      awaitingReceipt: ["sent"],
      scheduled: ["scheduled"],
      cancellable: ["scheduled"],
      final: ["delivered", "failed"],
      queuedOnAccept: ["queued"]
    })
    expect(Campaign).toEqual({ scheduled: ["scheduled"], cancellable: ["scheduled"] })
    expect(SenderId).toEqual({ final: ["rejected"] })
    expect(MessageTarget).toEqual({
      claim: "'processing'",
      release: "'queued'",
      due: "'queued'",
      fail: "'failed'",
      cancel: "'failed'"
    })
    expect(CampaignTarget).toEqual({ due: "'queued'", cancel: "'cancelled'" })
  })

  it("renders IN / NOT IN lists of literals", () => {
    expect(inList("m.status", ["queued", "processing"])).toBe("m.status IN ('queued', 'processing')")
    expect(notInList("status", ["rejected"])).toBe("status NOT IN ('rejected')")
    expect(inList("status", [])).toBe("false")
    expect(notInList("status", [])).toBe("true")
    expect(() => inList("status", ["x'); DROP TABLE messages; --"])).toThrow(/Not a status literal/)
    // an event leading to two different states has no single value to set
    expect(() => targetOf<"a" | "b" | "c", "go">({ a: { go: "b" }, b: { go: "c" }, c: {} }, "go")).toThrow(
      /no single target/
    )
  })
})

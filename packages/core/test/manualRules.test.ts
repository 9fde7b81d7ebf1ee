/**
 * The rules of an operator's manual actions (`operators/ManualRules.ts`): a top-up by hand needs a
 * reference, a sender-ID rejection needs a reason; absent or blank is refused with a 422 on that field.
 */
import { expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { rejectionReason, topUpReference } from "../src/operators/ManualRules.js"

it.effect("a top-up by hand needs a reference", () =>
  Effect.gen(function*() {
    expect(yield* topUpReference("INV-7")).toBe("INV-7")
    for (const missing of [undefined, null, "", "   "]) {
      const failure = yield* Effect.flip(topUpReference(missing))
      expect(failure._tag).toBe("ValidationFailed")
      expect(Object.keys(failure.errors)).toEqual(["reference"])
    }
  }))

it.effect("a rejection needs a reason", () =>
  Effect.gen(function*() {
    expect(yield* rejectionReason("blurry document")).toBe("blurry document")
    for (const missing of [undefined, null, "", "  "]) {
      const failure = yield* Effect.flip(rejectionReason(missing))
      expect(failure._tag).toBe("ValidationFailed")
      expect(Object.keys(failure.errors)).toEqual(["reason"])
    }
  }))

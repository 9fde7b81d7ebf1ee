import { expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { main } from "./main.js"

for (const store of ["pglite", "memory"]) {
  it.live(
    `the embed-core example sends a campaign and reports what it charged (${store})`,
    () =>
      Effect.gen(function*() {
        const { campaign, startingBalance } = yield* main("memory://", store)
        expect(campaign.status).toBe("queued")
        expect(campaign.recipient_count).toBe(4)
        expect(campaign.queued_count).toBe(3)
        expect(campaign.failures.map((f) => [f.index, f.error_code])).toEqual([[2, "DUPLICATE_RECIPIENT"]])
        expect(campaign.units).toBe(3)
        expect(campaign.charges).toEqual([{ country: "TZ", units: campaign.units }])
        expect(startingBalance).toBe(500)
      }),
    60_000
  )
}

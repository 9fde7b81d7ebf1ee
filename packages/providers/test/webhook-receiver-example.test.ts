/**
 * The example receiver (examples/webhook-receiver) against the real HTTP sender: it accepts a
 * signed delivery once, deduplicates a retry, and rejects a wrong signature with 401.
 */
import { describe, expect, it } from "@effect/vitest"
import { buildWebhookBody } from "@tuma/domain"
import { Effect } from "effect"
import type { ReceivedEvent } from "../../../examples/webhook-receiver/main.js"
import { startWebhookReceiver } from "../../../examples/webhook-receiver/main.js"
import { makeHttpWebhookSenderUnsafe } from "../src/webhook/index.js"

describe("examples/webhook-receiver", () => {
  it.live("verifies signatures over the raw body, prints each delivery once, rejects forgeries", () =>
    Effect.gen(function*() {
      const events: Array<ReceivedEvent> = []
      const rx = yield* Effect.acquireRelease(
        Effect.promise(() => startWebhookReceiver({ secret: "whsec_example", onEvent: (e) => events.push(e) })),
        (r) => Effect.promise(r.close)
      )
      const sender = makeHttpWebhookSenderUnsafe({ allow: ["127.0.0.1"] })
      const { body } = buildWebhookBody({
        messageId: "3f2b7c1a-0000-4000-8000-000000000001",
        to: "+255712345678",
        status: "failed",
        senderId: "TUMA",
        error: "Absent subscriber",
        finalAt: "2026-01-01T10:00:00Z",
        now: "2026-01-01T10:00:01Z"
      })
      const request = { url: rx.url, body, event: "sms.failed" as const, deliveryId: "d-1", timeoutMs: 2_000 }
      const ok = yield* sender.send({ ...request, secret: "whsec_example" })
      const retry = yield* sender.send({ ...request, secret: "whsec_example" })
      const forged = yield* sender.send({ ...request, secret: "whsec_other", deliveryId: "d-2" })
      expect([ok.status, retry.status, forged.status]).toEqual([204, 204, 401])
      expect(events).toHaveLength(1)
      expect(events[0]).toMatchObject({ deliveryId: "d-1", event: "sms.failed" })
      expect(events[0].payload).toMatchObject({ status: "failed", error: "Absent subscriber" })
      expect(events[0].raw.toString("utf8")).toBe(body)
      expect(rx.stats).toEqual({ verified: 1, rejected: 1, duplicates: 1 })
      sender.close()
    }).pipe(Effect.scoped))
})

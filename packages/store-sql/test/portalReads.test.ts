/**
 * Contract suite of the `PortalReadStore` port (the portal's dashboard, campaign history and message
 * timeline): `SqlPortalReadStore` on PGlite and PostgreSQL (core has no memory adapter of it).
 * The local days of the dashboard are the account's time zone's; every read is
 * bounded by the account.
 */
import { expect } from "@effect/vitest"
import { Ids, Operator } from "@tuma/core"
import { PortalReadStore } from "@tuma/core/ports/PortalReadStore"
import { WebhookStore } from "@tuma/core/ports/WebhookStore"
import { Effect, Layer } from "effect"
import * as SqlPortalReadStore from "../src/SqlPortalReadStore.js"
import * as SqlWebhookStore from "../src/SqlWebhookStore.js"
import { DeliveryProbe } from "./deliveryProbe.js"
import type { SqlLayerFor } from "./harness.js"
import { forEachDriver } from "./harness.js"
import type { OperatorStack } from "./operatorFixtures.js"
import { newAccount, operatorStack, seedCampaign, seedMessage } from "./operatorFixtures.js"

const stack: SqlLayerFor<OperatorStack | PortalReadStore | WebhookStore | DeliveryProbe> = (db, driver) =>
  Layer.mergeAll(SqlPortalReadStore.layer, SqlWebhookStore.layer, DeliveryProbe.sql).pipe(
    Layer.provideMerge(Layer.merge(operatorStack.sql(db, driver), db))
  )

/** 22:30 UTC on 7 May = 01:30 on 8 May in Dar es Salaam (UTC+3). */
const NOW = new Date("2026-05-07T22:30:00Z")
const TZ = "Africa/Dar_es_Salaam"
const at = (iso: string) => new Date(iso)

forEachDriver(stack, (it) => {
  it.effect("dashboard: balances by country, the last seven local days by day and status, the newest failures", () =>
    Effect.gen(function*() {
      const reads = yield* PortalReadStore
      const account = yield* newAccount({ purchases: { TZ: 100 } })
      const other = yield* newAccount()
      const accountId = account.uid
      // local 8 May 00:30 and 7 May 23:30; 2 May 00:00 is the first day counted, 1 May 23:59 is not
      yield* seedMessage({ accountId, createdAt: at("2026-05-07T21:30:00Z"), status: "delivered" })
      const late = yield* seedMessage({ accountId, createdAt: at("2026-05-07T20:30:00Z"), status: "failed" })
      yield* seedMessage({ accountId, createdAt: at("2026-05-07T20:00:00Z"), status: "delivered" })
      yield* seedMessage({ accountId, createdAt: at("2026-05-01T21:00:00Z"), status: "sent" })
      const old = yield* seedMessage({ accountId, createdAt: at("2026-05-01T20:59:00Z"), status: "failed" })
      yield* seedMessage({ accountId: other.uid, createdAt: at("2026-05-07T21:00:00Z"), status: "failed" })

      const d = yield* reads.dashboard(accountId, TZ, NOW)
      expect(d.balances).toEqual([{ country: "TZ", calling_code: "255", balance: 100, enabled: true }])
      const byKey = (a: { day: string; status: string }, b: { day: string; status: string }) =>
        `${a.day} ${a.status}`.localeCompare(`${b.day} ${b.status}`)
      expect([...d.counts].sort(byKey)).toEqual([
        { day: "2026-05-02", status: "sent", n: 1 },
        { day: "2026-05-07", status: "delivered", n: 1 },
        { day: "2026-05-07", status: "failed", n: 1 },
        { day: "2026-05-08", status: "delivered", n: 1 }
      ])
      // failures are not bounded by the week: the ten newest, newest first, this account's only
      expect(d.failures.map((f) => f.id)).toEqual([late, old])
      expect(d.failures[0]).toMatchObject({ recipient: "+255712345678", sender_id: "TUMA", failure_reason: null })
    }))

  it.effect("campaigns: newest first by page with the total and delivery counts per status; one campaign", () =>
    Effect.gen(function*() {
      const reads = yield* PortalReadStore
      const account = yield* newAccount()
      const other = yield* newAccount()
      const first = yield* seedCampaign(account.uid, "first", at("2026-05-07T10:00:00Z"))
      const second = yield* seedCampaign(account.uid, "second", at("2026-05-07T11:00:00Z"))
      yield* seedCampaign(other.uid, "theirs", at("2026-05-07T12:00:00Z"))
      for (const status of ["delivered", "delivered", "failed"] as const) {
        yield* seedMessage({ accountId: account.uid, createdAt: at("2026-05-07T10:00:00Z"), status, campaignId: first })
      }

      const page1 = yield* reads.campaigns(account.uid, 1, 1)
      expect(page1.total).toBe(2)
      expect(page1.rows.map((r) => [r.id, r.name, r.delivery])).toEqual([[second, "second", {}]])
      const page2 = yield* reads.campaigns(account.uid, 2, 1)
      expect(page2.rows).toHaveLength(1)
      expect(page2.rows[0]).toMatchObject({
        id: first,
        name: "first",
        sender_id: "TUMA",
        api_version: "v2",
        api_key_id: null,
        status: "queued",
        recipient_count: 1,
        units: 1,
        failures: [],
        scheduled_at: null,
        created_at: at("2026-05-07T10:00:00Z"),
        delivery: { delivered: 2, failed: 1 }
      })
      expect(yield* reads.campaigns(account.uid, 3, 1)).toEqual({ rows: [], total: 2 })

      expect(yield* reads.campaign(account.uid, first)).toEqual(page2.rows[0])
      expect(yield* reads.campaign(other.uid, first)).toBeUndefined()
      expect(yield* reads.campaign(account.uid, "not-a-uuid")).toBeUndefined()
    }))

  it.effect("message timeline: the message's moments, for its own account only; no deliveries, no secret", () =>
    Effect.gen(function*() {
      const reads = yield* PortalReadStore
      const account = yield* newAccount()
      const other = yield* newAccount()
      const created = at("2026-05-07T09:00:00Z")
      const id = yield* seedMessage({ accountId: account.uid, createdAt: created, status: "queued" })

      expect(yield* reads.messageTimeline(account.uid, id)).toEqual({
        id,
        text: "Hello",
        country: "TZ",
        created_at: created,
        scheduled_at: null,
        queued_at: created,
        sent_at: null,
        delivered_at: null,
        failed_at: null,
        failure_reason: null,
        dr_checked_at: null,
        dr_status: null,
        dr_delivery_status: null
      })
      expect(yield* reads.messageTimeline(other.uid, id)).toBeUndefined()
      expect(yield* reads.messageTimeline(account.uid, "nope")).toBeUndefined()
      // no webhook endpoint: no delivery, no secret
      expect(yield* reads.deliveries(account.uid, { messageId: id }, 10)).toEqual([])
      const unknown = yield* (yield* Ids).uuidV4
      expect(yield* reads.deliveries(account.uid, { endpointId: unknown }, 10)).toEqual([])
      expect(yield* reads.endpointSecret(account.uid, unknown)).toBeUndefined()
    }))

  it.effect("webhook deliveries of a message and of an endpoint, with their attempts; the secret, own account only", () =>
    Effect.gen(function*() {
      const reads = yield* PortalReadStore
      const hooks = yield* WebhookStore
      const probe = yield* DeliveryProbe
      const ids = yield* Ids
      const account = yield* newAccount()
      const other = yield* newAccount()
      const key = yield* (yield* Operator).issueApiKey({ accountId: account.uid })
      const endpoint = (yield* hooks.createEndpoint({
        id: yield* ids.uuidV4,
        apiKeyId: key.id,
        url: "https://example.com/hooks",
        secret: "whsec_portal",
        now: NOW
      }))!
      const id = yield* probe.insertSentMessage({
        accountId: account.uid,
        apiKeyId: key.id,
        recipient: "+255712345678"
      })
      yield* probe.finalize([id], "delivered")
      const [queued] = yield* reads.deliveries(account.uid, { endpointId: endpoint.id }, 10)
      const attemptedAt = new Date(Date.now() + 1_000)
      const retryAt = new Date(Date.now() + 60_000)
      yield* hooks.recordAttempts(
        [{
          deliveryId: queued!.id,
          endpointId: endpoint.id,
          attempt: 1,
          attemptedAt,
          outcome: "failure",
          responseStatus: 500,
          latencyMs: 12,
          error: "HTTP 500",
          nextAttemptAt: retryAt
        }],
        attemptedAt,
        { disableAfterConsecutiveFailures: 10 },
        ids.uuidV4
      )

      const expected = {
        id: queued!.id,
        endpoint_id: endpoint.id,
        event: "sms.delivered",
        status: "pending",
        message_id: id,
        recipient: "+255712345678",
        attempts: 1,
        next_attempt_at: retryAt,
        last_status: 500,
        last_error: "HTTP 500",
        completed_at: null,
        attempt_log: [{
          attempt: 1,
          attempted_at: attemptedAt,
          outcome: "failure",
          response_status: 500,
          latency_ms: 12,
          error: "HTTP 500"
        }]
      }
      expect(yield* reads.deliveries(account.uid, { messageId: id }, 10)).toEqual([expected])
      expect(yield* reads.deliveries(account.uid, { endpointId: endpoint.id }, 10)).toEqual([expected])
      expect(yield* reads.endpointSecret(account.uid, endpoint.id)).toEqual({
        url: "https://example.com/hooks",
        secret: "whsec_portal"
      })
      // another account sees none of it
      expect(yield* reads.deliveries(other.uid, { messageId: id }, 10)).toEqual([])
      expect(yield* reads.deliveries(other.uid, { endpointId: endpoint.id }, 10)).toEqual([])
      expect(yield* reads.endpointSecret(other.uid, endpoint.id)).toBeUndefined()
    }))
})

/**
 * Handlers of the portal's `portalDashboard` (dashboard, preview, web send), `portalCampaigns`,
 * `portalMessages` and `portalSenderIds` groups. Sends and campaigns go through core's `Send`
 * with channel `web` and no API key — the API's routing, sender-ID, wallet, spam, opt-out and
 * credit rules; the previews are core's (`Preview.previewOf`, `Preview.campaignPreviewOf`: bulk v2
 * in sandbox mode next to the wallets).
 *
 * Why one file of ≈300 lines: the handlers of four endpoint groups of the portal contract that
 * share their services (dashboard, campaigns, messages, sender IDs).
 */
import type * as FileSystem from "@effect/platform/FileSystem"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import type * as Path from "@effect/platform/Path"
import type { SendCaller } from "@tuma/core"
import { Send } from "@tuma/core"
import { Admin, Campaigns, Contacts, Dashboard, Preview } from "@tuma/core"
import { Reads } from "@tuma/core"
import { SenderIds } from "@tuma/core"
import type { CampaignRow, DeliveryWithAttempts } from "@tuma/core"
import { PortalReadStore } from "@tuma/core"
import { PortalAccess } from "@tuma/core/portal/PortalAccess"
import { campaignStageOf, countryCodeOf } from "@tuma/domain"
import type { CountryCode } from "@tuma/domain"
import { Effect, Schema } from "effect"
import { TumaApi } from "../Api.js"
import { ServerConfig } from "../runtime/Config.js"
import { readSenderIdRequest } from "../senderIds/Http.js"
import { requestUid } from "../shared/Envelope.js"
import { toApiFailure } from "../shared/Errors.js"
import { CampaignFailure } from "../shared/Responses.js"
import { sendHandlers } from "../sms/sendAnswer.js"
import type { PortalUserContext } from "./Api.js"
import { CurrentPortalUser, TimelineEvent } from "./Api.js"
import { mapFailure, ok } from "./Views.js"

const iso = (d: Date | null) => (d === null ? null : d.toISOString())

const webCaller = (
  user: PortalUserContext,
  idempotencyKey: string | undefined,
  localCountry: CountryCode | undefined
): SendCaller => ({
  accountId: user.accountId,
  apiKeyId: null,
  mode: "live",
  channel: "web",
  idempotencyKey,
  localCountry
})

/** The signed-in user's account's country: national numbers (`0712…`) are read in it. */
export const localCountry = (user: PortalUserContext) =>
  Effect.flatMap(PortalAccess, (access) => access.account(user.accountId)).pipe(
    Effect.map((account) => countryCodeOf(account.country)),
    Effect.orElseSucceed(() => undefined)
  )

/** A send as the signed-in portal user (channel `web`). */
export const sendAs = sendHandlers((idempotencyKey) =>
  Effect.flatMap(
    CurrentPortalUser,
    (user) => Effect.map(localCountry(user), (country) => webCaller(user, idempotencyKey, country))
  )
)

/** A CSV cell: quoted, and a leading formula character neutralised (CSV injection). */
const cell = (v: unknown): string => {
  if (v === null || v === undefined) return ""
  let s = String(v)
  if (/^[=@\t\r]/.test(s) || (/^[+-]/.test(s) && !/^[+-]?[0-9][0-9 ]*$/.test(s))) s = `'${s}`
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, "\"\"")}"` : s
}

const CSV_COLUMNS = [
  "uid",
  "recipient",
  "sender_id",
  "status",
  "channel",
  "units",
  "queued_at",
  "sent_at",
  "delivered_at",
  "failure_reason",
  "campaign_uid",
  "campaign_name"
] as const

/** The columns the export adds after `CSV_COLUMNS`: the text, and the times in the user's time zone. */
const CSV_LOCAL_COLUMNS = ["text", "time_zone", "queued_local", "sent_local", "delivered_local"] as const

/** `2026-03-01 13:00:00` in `timeZone` (an invalid zone falls back to UTC). */
export const localTime = (iso: string | null, timeZone: string): string => {
  if (iso === null) return ""
  const at = new Date(iso)
  try {
    return new Intl.DateTimeFormat("sv-SE", { timeZone, dateStyle: "short", timeStyle: "medium" }).format(at)
  } catch {
    return at.toISOString().slice(0, 19).replace("T", " ")
  }
}

export const deliveryView = (d: DeliveryWithAttempts) => ({
  uid: d.id,
  endpoint_uid: d.endpoint_id,
  event: d.event,
  status: d.status,
  message_uid: d.message_id,
  recipient: d.recipient,
  attempts: d.attempts,
  next_attempt_at: iso(d.next_attempt_at),
  last_status: d.last_status,
  last_error: d.last_error,
  completed_at: iso(d.completed_at),
  attempt_log: d.attempt_log.map((a) => ({
    attempt: a.attempt,
    attempted_at: a.attempted_at.toISOString(),
    outcome: a.outcome,
    response_status: a.response_status,
    latency_ms: a.latency_ms,
    error: a.error
  }))
})

/** What the dashboard, the previews and the web sends use: sends, the wallets and the portal's reads. */
const sendingServices = Effect.all({ send: Send, admin: Admin, store: PortalReadStore })

export const PortalDashboardLive = HttpApiBuilder.group(
  TumaApi,
  "portalDashboard",
  (handlers) =>
    Effect.gen(function*() {
      const { admin, send, store } = yield* sendingServices

      return handlers
        .handle("dashboard", ({ urlParams }) =>
          Effect.flatMap(CurrentPortalUser, (user) =>
            Dashboard.dashboardOf(user.accountId, urlParams.tz ?? user.timeZone).pipe(
              Effect.provideService(PortalReadStore, store),
              Effect.mapError((e) =>
                toApiFailure(e)
              ),
              Effect.flatMap(ok)
            )))
        .handle("preview", ({ payload }) =>
          Effect.flatMap(CurrentPortalUser, (user) =>
            Effect.flatMap(localCountry(user), (country) =>
              Preview.previewOf(user.accountId, payload, country)).pipe(
                Effect.provideService(Admin, admin),
                mapFailure,
                Effect.flatMap(ok)
              )))
        // decisions §7 in `send.single`: counted together with the API's live sends (same counter)
        .handle("sendSms", sendAs(send.single))
    })
)

export const PortalCampaignsLive = HttpApiBuilder.group(
  TumaApi,
  "portalCampaigns",
  (handlers) =>
    Effect.gen(function*() {
      const { admin, send, store } = yield* sendingServices

      const campaignView = (c: CampaignRow) => ({
        uid: c.id,
        name: c.name,
        sender_id: c.sender_id,
        api_version: c.api_version,
        channel: c.api_key_id === null ? "web" as const : "api" as const,
        status: c.status,
        stage: campaignStageOf(c),
        recipient_count: c.recipient_count,
        queued_count: c.queued_count,
        failed_count: c.failed_count,
        units: c.units,
        scheduled_at: iso(c.scheduled_at),
        created_at: c.created_at.toISOString(),
        delivery: Dashboard.countsOf(c.delivery)
      })

      return handlers
        .handle("previewCampaign", ({ payload }) =>
          Effect.flatMap(CurrentPortalUser, (user) =>
            Effect.flatMap(localCountry(user), (country) =>
              Preview.campaignPreviewOf(webCaller(user, undefined, country), payload)).pipe(
                Effect.provideService(Send, send),
                Effect.provideService(Admin, admin),
                mapFailure,
                Effect.flatMap(ok)
              )))
        .handle("createCampaign", sendAs(send.bulkV2))
        .handle("listCampaigns", ({ urlParams }) =>
          Effect.gen(function*() {
            const user = yield* CurrentPortalUser
            const perPage = Math.min(Math.max(Math.floor(urlParams.per_page ?? 20), 1), 100)
            const page = Math.max(Math.floor(urlParams.page ?? 1), 1)
            const { rows, total } = yield* store.campaigns(user.accountId, page, perPage)
            return {
              success: true as const,
              request_uid: yield* requestUid,
              data: rows.map(campaignView),
              meta: { current_page: page, per_page: perPage, total, last_page: Math.max(1, Math.ceil(total / perPage)) }
            }
          }))
        .handle("getCampaign", ({ path }) =>
          Effect.gen(function*() {
            const user = yield* CurrentPortalUser
            const c = yield* store.campaign(user.accountId, path.campaign_uid)
            if (c === undefined) {
              return yield* Effect.fail(
                toApiFailure({ _tag: "NotFound", error_code: "NOT_FOUND", message: "The campaign was not found." })
              )
            }
            const failures = yield* Schema.decodeUnknown(Schema.Array(CampaignFailure))(c.failures).pipe(Effect.orDie)
            return yield* ok({ ...campaignView(c), failures })
          }))
        .handle("checkRecipients", ({ payload }) =>
          Effect.flatMap(CurrentPortalUser, (user) =>
            Effect.flatMap(localCountry(user), (country) =>
              ok({ problems: Contacts.recipientRowProblems(payload.rows, country) }))))
        .handle("copyCampaign", ({ path }) =>
          Effect.gen(function*() {
            const user = yield* CurrentPortalUser
            const c = yield* store.campaignCopy(user.accountId, path.campaign_uid)
            if (c === undefined) {
              return yield* Effect.fail(
                toApiFailure({ _tag: "NotFound", error_code: "NOT_FOUND", message: "The campaign was not found." })
              )
            }
            return yield* ok({
              name: c.name,
              sender_id: c.sender_id,
              message: c.message ?? c.first_text ?? "",
              recipients: c.recipients
            })
          }))
        .handle("cancelCampaign", ({ path }) =>
          Effect.gen(function*() {
            const user = yield* CurrentPortalUser
            const cancelled = yield* Campaigns.cancelCampaign(user.accountId, path.campaign_uid).pipe(
              Effect.mapError((e) =>
                toApiFailure(e)
              )
            )
            return yield* ok(cancelled)
          }))
    })
)

export const PortalMessagesLive = HttpApiBuilder.group(TumaApi, "portalMessages", (handlers) =>
  Effect.gen(function*() {
    const reads = yield* Reads
    const store = yield* PortalReadStore

    return handlers
      .handle("listMessages", ({ urlParams }) =>
        Effect.gen(function*() {
          const user = yield* CurrentPortalUser
          const page = yield* reads.listMessages(user.accountId, urlParams).pipe(
            Effect.mapError((e) => toApiFailure(e))
          )
          return { success: true as const, request_uid: yield* requestUid, data: page.data, meta: page.meta }
        }))
      .handle("exportMessages", ({ urlParams }) =>
        Effect.gen(function*() {
          const user = yield* CurrentPortalUser
          const lines: Array<string> = [[...CSV_COLUMNS, ...CSV_LOCAL_COLUMNS].join(",")]
          const zone = user.timeZone
          for (let page = 1; page <= 100; page++) {
            const p = yield* reads.listMessages(user.accountId, { ...urlParams, per_page: 100, page }).pipe(
              Effect.mapError((e) => toApiFailure(e))
            )
            const texts = yield* store.messageTexts(user.accountId, p.data.map((m) => m.uid))
            for (const m of p.data) {
              const local = [
                texts.get(m.uid) ?? "",
                zone,
                ...[m.queued_at, m.sent_at, m.delivered_at].map((t) => localTime(t, zone))
              ]
              lines.push([...CSV_COLUMNS.map((c) => cell(m[c])), ...local.map(cell)].join(","))
            }
            if (page >= p.meta.last_page) break
          }
          yield* HttpApp.appendPreResponseHandler((_req, response) =>
            Effect.succeed(
              HttpServerResponse.setHeader(response, "content-disposition", "attachment; filename=\"messages.csv\"")
            )
          )
          return lines.join("\r\n") + "\r\n"
        }))
      .handle("getMessage", ({ path }) =>
        Effect.gen(function*() {
          const user = yield* CurrentPortalUser
          const message = yield* reads.getMessage(user.accountId, path.uid).pipe(
            Effect.mapError((e) => toApiFailure(e))
          )
          const row = yield* store.messageTimeline(user.accountId, path.uid)
          if (row === undefined) return yield* Effect.die("portal: message vanished mid-request")
          const timeline: Array<{ at: string; event: typeof TimelineEvent.Type["event"]; detail: string | null }> = [
            { at: row.created_at.toISOString(), event: "created", detail: null }
          ]
          if (row.scheduled_at !== null) {
            timeline.push({
              at: row.created_at.toISOString(),
              event: "scheduled",
              detail: row.scheduled_at.toISOString()
            })
          }
          if (row.queued_at !== null) timeline.push({ at: row.queued_at.toISOString(), event: "queued", detail: null })
          if (row.sent_at !== null) timeline.push({ at: row.sent_at.toISOString(), event: "sent", detail: null })
          if (row.dr_checked_at !== null) {
            timeline.push({
              at: row.dr_checked_at.toISOString(),
              event: "delivery_report",
              detail: [row.dr_status, row.dr_delivery_status].filter((x) => x !== null).join(" / ") || null
            })
          }
          if (row.delivered_at !== null) {
            timeline.push({ at: row.delivered_at.toISOString(), event: "delivered", detail: null })
          }
          if (row.failed_at !== null) {
            timeline.push({ at: row.failed_at.toISOString(), event: "failed", detail: row.failure_reason })
          }
          timeline.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0))
          const webhooks = yield* store.deliveries(user.accountId, { messageId: path.uid }, 50)
          return yield* ok({
            message,
            text: row.text,
            country: row.country,
            created_at: row.created_at.toISOString(),
            timeline,
            webhooks: webhooks.map(deliveryView)
          })
        }))
  }))

export const PortalSenderIdsLive = HttpApiBuilder.group(
  TumaApi,
  "portalSenderIds",
  (handlers) =>
    Effect.gen(function*() {
      const service = yield* SenderIds
      const config = yield* ServerConfig
      const context = yield* Effect.context<FileSystem.FileSystem | Path.Path>()

      const readInput = (request: HttpServerRequest.HttpServerRequest) =>
        readSenderIdRequest(request, config.maxUploadBytes, context)

      return handlers
        .handle("listSenderIds", () =>
          Effect.gen(function*() {
            const user = yield* CurrentPortalUser
            return yield* ok(yield* service.list(user.accountId))
          }))
        .handle("requirements", () =>
          Effect.gen(function*() {
            const user = yield* CurrentPortalUser
            return yield* ok(yield* service.requirements(user.accountId))
          }))
        .handleRaw("requestSenderId", ({ request }) =>
          Effect.gen(function*() {
            const user = yield* CurrentPortalUser
            const input = yield* readInput(request)
            const created = yield* service.request(user.accountId, input, { sandbox: false }).pipe(
              Effect.mapError((e) => toApiFailure(e))
            )
            return {
              success: true as const,
              request_uid: yield* requestUid,
              message: created.message,
              data: created.data
            }
          }))
    })
)

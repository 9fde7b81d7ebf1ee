/** The console's routes of sender-ID review: the queue, one request, its documents, decisions. */
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Effect, Schema } from "effect"
import { OptionalText, param, route, withQuery } from "../Http.js"
import type { ConsoleRoutes } from "./context.js"
import { admin, decide, senderIdStatus } from "./helpers.js"

/** Registers the routes of sender-ID review: the queue, one request, its documents, decisions. */
export const senderIdsRoutes = ({ base, on }: ConsoleRoutes) =>
  Effect.gen(function*() {
    // --- sender IDs --------------------------------------------------------------------------
    yield* on.get(
      `${base}/sender-ids`,
      route(
        "read",
        withQuery(Schema.Struct({ status: OptionalText }), (_, query) =>
          Effect.gen(function*() {
            const status = yield* senderIdStatus(query.status ?? "pending")
            const rows = yield* admin((a) => a.listSenderIds({ status }))
            // the review queue: oldest first
            return [...rows].sort((x, y) => x.requested_at.localeCompare(y.requested_at))
          }))
      )
    )
    yield* on.get(
      `${base}/sender-ids/:uid`,
      route("read", (ctx) => admin((a) => a.getSenderId(param(ctx, "uid"))))
    )
    yield* on.get(
      `${base}/sender-id-documents/:uid`,
      route("read", (ctx) =>
        Effect.map(
          admin((a) => a.getSenderIdDocument(param(ctx, "uid"))),
          ({ content, document }) => {
            const safe = /^(application\/pdf|image\/(png|jpeg))$/.test(document.content_type)
              ? document.content_type
              : "application/octet-stream"
            return HttpServerResponse.uint8Array(content, {
              contentType: safe,
              headers: {
                "content-disposition": `inline; filename="${document.filename.replace(/[^\w.-]/g, "_")}"`,
                "cache-control": "private, no-store",
                "x-content-type-options": "nosniff",
                // previewed inside the console only
                "content-security-policy":
                  "default-src 'none'; img-src 'self'; object-src 'self'; frame-ancestors 'self'",
                "x-frame-options": "SAMEORIGIN"
              }
            })
          }
        ))
    )
    yield* on.post(`${base}/sender-ids/:uid/approve`, route("sender_ids.review", decide("approve")))
    yield* on.post(`${base}/sender-ids/:uid/reject`, route("sender_ids.review", decide("reject")))
    yield* on.post(`${base}/sender-ids/:uid/suspend`, route("sender_ids.review", decide("suspend")))
  })

/** Handlers of the console's sender-ID review: the queue, one request, its documents, decisions. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Effect } from "effect"
import { TumaApi } from "../../Api.js"
import { asOperator } from "../Http.js"
import { admin, decide, senderIdStatus } from "./helpers.js"

/** A stored document as a download the console previews (only PDF, PNG and JPEG as themselves). */
const documentResponse = (content: Uint8Array, document: { content_type: string; filename: string }) =>
  HttpServerResponse.uint8Array(content, {
    contentType: /^(application\/pdf|image\/(png|jpeg))$/.test(document.content_type)
      ? document.content_type
      : "application/octet-stream",
    headers: {
      "content-disposition": `inline; filename="${document.filename.replace(/[^\w.-]/g, "_")}"`,
      "cache-control": "private, no-store",
      "x-content-type-options": "nosniff",
      // previewed inside the console only
      "content-security-policy": "default-src 'none'; img-src 'self'; object-src 'self'; frame-ancestors 'self'",
      "x-frame-options": "SAMEORIGIN"
    }
  })

export const ConsoleSenderIdsLive = HttpApiBuilder.group(TumaApi, "consoleSenderIds", (handlers) =>
  handlers
    .handle("queue", ({ urlParams }) =>
      asOperator(() =>
        Effect.gen(function*() {
          const status = yield* senderIdStatus(urlParams.status ?? "pending")
          const rows = yield* admin((a) => a.listSenderIds({ status }))
          // the review queue: oldest first
          return [...rows].sort((x, y) => x.requested_at.localeCompare(y.requested_at))
        })
      ))
    .handle("get", ({ path }) => asOperator(() => admin((a) => a.getSenderId(path.uid))))
    .handle("document", ({ path }) =>
      asOperator(() =>
        Effect.map(
          admin((a) => a.getSenderIdDocument(path.uid)),
          ({ content, document }) => documentResponse(content, document)
        )
      ))
    .handle("approve", ({ path, payload }) => asOperator(() => decide("approve", path.uid, payload.reason)))
    .handle("reject", ({ path, payload }) => asOperator(() => decide("reject", path.uid, payload.reason)))
    .handle("suspend", ({ path, payload }) => asOperator(() => decide("suspend", path.uid, payload.reason))))

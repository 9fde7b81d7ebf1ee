/** Handlers of the console's sender-ID review: the queue, one request, its documents, decisions. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { targetNames } from "@tuma/core/audit/TargetNames"
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

/** The names of the accounts that asked (the reviewer sees who asked, not an id). */
const accountNames = (uids: ReadonlyArray<string>) => targetNames(uids.map((uid) => `account:${uid}`))

export const ConsoleSenderIdsLive = HttpApiBuilder.group(TumaApi, "consoleSenderIds", (handlers) =>
  handlers
    .handle("queue", ({ urlParams }) =>
      asOperator(() =>
        Effect.gen(function*() {
          const status = yield* senderIdStatus(urlParams.status ?? "pending")
          const rows = yield* admin((a) => a.listSenderIds({ status }))
          const names = yield* accountNames(rows.map((r) => r.account_uid))
          // the review queue: oldest first
          return [...rows].sort((x, y) => x.requested_at.localeCompare(y.requested_at))
            .map((r) => ({ ...r, account_name: names.get(`account:${r.account_uid}`) ?? null }))
        })
      ))
    .handle("get", ({ path }) =>
      asOperator(() =>
        Effect.gen(function*() {
          const detail = yield* admin((a) => a.getSenderId(path.uid))
          const names = yield* accountNames([detail.sender_id.account_uid])
          const account_name = names.get(`account:${detail.sender_id.account_uid}`) ?? null
          return { ...detail, sender_id: { ...detail.sender_id, account_name } }
        })
      ))
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

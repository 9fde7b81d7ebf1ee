/**
 * Request bodies, queries, paths and headers of spec §4, as the contract reads them: the schemas
 * of @tuma/domain (limits of §8, messages without field names) decoded with every issue collected
 * (`errors: "all"`, decisions §4) and unknown fields ignored (decisions §25). The envelope
 * middleware turns the builder's decode errors into `errors` by field path with
 * `fieldErrorsFromIssues`.
 */
import * as D from "@tuma/domain"
import { Schema } from "effect"

import { all } from "./apiSchemas.js"

export const SendSingleRequest = D.SendMessageRequest.annotations(all)
export const SendBulkV1Request = D.BulkSendV1Request.annotations(all)
export const SendBulkV2Request = D.BulkSendV2Request.annotations(all)
export const ListMessagesQuery = D.ListMessagesQuery.annotations(all)
export const MessageUidPath = D.MessageUidParams.annotations(all)
export const SenderIdRequestJson = D.SenderIdRequest.annotations(all)

/** `Idempotency-Key` on every send endpoint (spec §8). */
export { IdempotencyHeaders } from "./apiSchemas.js"

export const Purpose = Schema.Literal(...D.SENDER_ID_PURPOSES)

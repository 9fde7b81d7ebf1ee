/**
 * Handlers of the `sms` group: sends (single + alias, bulk v1, bulk v2) over core's `Send` (which
 * also applies the duplicate-content limit), balance, messages and profile over core's `Reads`
 * (whose `…Of` methods give a test key the sandbox answers of spec §2.2, §2.5, §4.4, decisions §12).
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import type { ReadOutcome } from "@tuma/core"
import { Send } from "@tuma/core"
import { Reads } from "@tuma/core"
import { Effect } from "effect"
import { TumaApi } from "../Api.js"
import { requestUid } from "../shared/Envelope.js"
import { toApiFailure } from "../shared/Errors.js"
import { CurrentApiKey } from "../shared/Security.js"
import { callerOf } from "./caller.js"
import { sendHandlers } from "./sendAnswer.js"
import * as SingleSend from "./SingleSend.js"

/** A send as the request's API key. */
const sendAs = sendHandlers((idempotencyKey) => Effect.map(CurrentApiKey, (key) => callerOf(key, idempotencyKey)))

export const SmsLive = HttpApiBuilder.group(TumaApi, "sms", (handlers) =>
  Effect.gen(function*() {
    const send = yield* Send
    const reads = yield* Reads
    const single = yield* SingleSend.make

    /**
     * The single send (both paths): `SingleSend` over the request's body, after the key's middleware.
     * A body that cannot be read (not JSON, too deep, too large) is the envelope's to answer, as a
     * defect: the endpoint's declared errors do not name the platform's `RequestError`.
     */
    const sendSingle = ({ request }: { readonly request: HttpServerRequest.HttpServerRequest }) =>
      Effect.flatMap(CurrentApiKey, (key) => single(key, request.headers, Effect.orDie(request.json))).pipe(
        Effect.map(SingleSend.toResponse)
      )

    /** The envelope of a read answer: `mode: "sandbox"` on a test key's answers. */
    const read = <D>(outcome: ReadOutcome<D>) =>
      Effect.map(requestUid, (request_uid) => ({
        success: true as const,
        request_uid,
        ...(outcome.sandbox ? { mode: "sandbox" as const } : {}),
        data: outcome.data
      }))

    const balance = () =>
      Effect.gen(function*() {
        const key = yield* CurrentApiKey
        const request_uid = yield* requestUid
        const outcome = yield* reads.balanceOf(key)
        return outcome.sandbox
          ? { success: true as const, request_uid, mode: "sandbox" as const, data: outcome.data }
          : { success: true as const, request_uid, data: outcome.data }
      })

    return handlers
      .handle("getBalance", balance)
      .handle("getBalanceAlias", balance)
      .handleRaw("sendMessage", sendSingle)
      .handleRaw("sendQuickMessage", sendSingle)
      .handle("sendBulkV1", sendAs(send.bulkV1))
      .handle("sendBulkV2", sendAs(send.bulkV2))
      .handle("listMessages", ({ urlParams }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          const request_uid = yield* requestUid
          const page = yield* reads.messagesOf(key, urlParams).pipe(Effect.mapError((e) => toApiFailure(e)))
          return {
            success: true as const,
            request_uid,
            ...(page.sandbox ? { mode: "sandbox" as const } : {}),
            data: page.data.data,
            meta: page.data.meta
          }
        }))
      .handle("getMessage", ({ path }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          const request_uid = yield* requestUid
          const outcome = yield* reads.messageOf(key, path.uid).pipe(Effect.mapError((e) => toApiFailure(e)))
          return outcome.sandbox
            ? { success: true as const, request_uid, mode: "sandbox" as const, data: outcome.data }
            : { success: true as const, request_uid, data: outcome.data }
        }))
      .handle("getProfile", () => Effect.flatMap(CurrentApiKey, (key) => Effect.flatMap(reads.profileOf(key), read)))
  }))

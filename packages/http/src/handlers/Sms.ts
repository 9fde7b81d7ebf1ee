/**
 * Handlers of the `sms` group: sends (single + alias, bulk v1, bulk v2) over core's `Send`,
 * balance, messages and profile over core's read use cases, and the sandbox answers of
 * spec §2.2, §2.5, §4.4 and decisions §12.
 */
import { RateLimiter } from "@effect/experimental"
import { HttpApiBuilder } from "@effect/platform"
import type { SendCaller, SendOutcome } from "@tuma/core"
import { Send } from "@tuma/core"
import { Reads, sandboxBalance } from "@tuma/core/Reads"
import type { SendMessageRequest } from "@tuma/domain"
import { Duration, Effect } from "effect"
import { TumaApi } from "../Api.js"
import { ServerConfig } from "../Config.js"
import { makeDuplicateContentCounter } from "../DuplicateContent.js"
import { requestUid } from "../Envelope.js"
import { toApiFailure, unknownOutcome } from "../Errors.js"
import { CurrentApiKey } from "../Security.js"
import type { AuthenticatedKey } from "../Security.js"

const callerOf = (key: AuthenticatedKey, idempotencyKey: string | undefined): SendCaller => ({
  accountId: key.accountId,
  apiKeyId: key.keyId,
  mode: key.mode,
  channel: "api",
  idempotencyKey
})

/** The envelope of a send answer (decisions §26). */
const sent = <A>(outcome: SendOutcome<A>) =>
  Effect.map(requestUid, (request_uid) => {
    const body: { success: true; request_uid: string; data: A; idempotent_replay?: true; mode?: "sandbox" } = {
      success: true,
      request_uid,
      data: outcome.data
    }
    if (outcome.sandbox) body.mode = "sandbox"
    if (outcome.idempotent_replay) body.idempotent_replay = true
    return body
  })

export const SmsLive = HttpApiBuilder.group(TumaApi, "sms", (handlers) =>
  Effect.gen(function*() {
    const send = yield* Send
    const reads = yield* Reads
    const limiter = yield* RateLimiter.RateLimiter
    const config = yield* ServerConfig
    const dupWindow = Duration.millis(config.rateLimit.duplicateWindowMillis)
    const countContent = yield* makeDuplicateContentCounter

    /**
     * decisions §7: the same (sender_id, body) more than N times in the window per account → 429.
     * A request repeating an Idempotency-Key already seen in the window is a retry of one send and
     * is not counted again.
     */
    const duplicateGuard = (key: AuthenticatedKey, payload: SendMessageRequest, idempotencyKey: string | undefined) =>
      idempotencyKey === undefined
        ? countDuplicate(key, payload)
        : limiter.consume({
          algorithm: "fixed-window",
          window: dupWindow,
          limit: 1,
          key: `dupk:${key.accountId}:${key.mode}:${idempotencyKey}`
        }).pipe(
          Effect.matchEffect({
            onFailure: (e) =>
              e.reason === "Exceeded" ? Effect.void : Effect.logWarning("duplicate-content limiter unavailable", e),
            onSuccess: () => countDuplicate(key, payload)
          })
        )

    const countDuplicate = (key: AuthenticatedKey, payload: SendMessageRequest) =>
      countContent(key.accountId, key.mode, payload.sender_id, payload.body)

    const single = ({ headers, payload }: {
      readonly payload: SendMessageRequest
      readonly headers: { readonly "idempotency-key"?: string }
    }) =>
      Effect.gen(function*() {
        const key = yield* CurrentApiKey
        yield* duplicateGuard(key, payload, headers["idempotency-key"])
        const outcome = yield* send.single(callerOf(key, headers["idempotency-key"]), payload).pipe(
          Effect.mapError((e) => toApiFailure(e, { send: true })),
          unknownOutcome
        )
        return yield* sent(outcome)
      })

    const balance = () =>
      Effect.gen(function*() {
        const key = yield* CurrentApiKey
        const request_uid = yield* requestUid
        if (key.mode === "test") {
          return { success: true as const, request_uid, mode: "sandbox" as const, data: sandboxBalance }
        }
        const data = yield* reads.balance(key.accountId)
        return { success: true as const, request_uid, data }
      })

    return handlers
      .handle("getBalance", balance)
      .handle("getBalanceAlias", balance)
      .handle("sendMessage", single)
      .handle("sendQuickMessage", single)
      .handle("sendBulkV1", ({ headers, payload }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          const outcome = yield* send.bulkV1(callerOf(key, headers["idempotency-key"]), payload).pipe(
            Effect.mapError((e) => toApiFailure(e, { send: true })),
            unknownOutcome
          )
          return yield* sent(outcome)
        }))
      .handle("sendBulkV2", ({ headers, payload }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          const outcome = yield* send.bulkV2(callerOf(key, headers["idempotency-key"]), payload).pipe(
            Effect.mapError((e) => toApiFailure(e, { send: true })),
            unknownOutcome
          )
          return yield* sent(outcome)
        }))
      .handle("listMessages", ({ urlParams }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          const request_uid = yield* requestUid
          const page = key.mode === "test"
            ? { data: [], meta: { current_page: urlParams.page, per_page: urlParams.per_page, total: 0, last_page: 1 } }
            : yield* reads.listMessages(key.accountId, urlParams).pipe(Effect.mapError((e) => toApiFailure(e)))
          return {
            success: true as const,
            request_uid,
            ...(key.mode === "test" ? { mode: "sandbox" as const } : {}),
            data: page.data,
            meta: page.meta
          }
        }))
      .handle("getMessage", ({ path }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          const request_uid = yield* requestUid
          if (key.mode === "test") {
            // decisions §12: a sandbox read of any well-formed UUID is delivered, at once
            return {
              success: true as const,
              request_uid,
              mode: "sandbox" as const,
              data: { uid: path.uid, status: "delivered" as const, delivered_at: new Date().toISOString() }
            }
          }
          const data = yield* reads.getMessage(key.accountId, path.uid).pipe(Effect.mapError((e) => toApiFailure(e)))
          return { success: true as const, request_uid, data }
        }))
      .handle("getProfile", () =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          const request_uid = yield* requestUid
          const data = yield* reads.profile(key.accountId)
          return {
            success: true as const,
            request_uid,
            ...(key.mode === "test" ? { mode: "sandbox" as const } : {}),
            data
          }
        }))
  }))

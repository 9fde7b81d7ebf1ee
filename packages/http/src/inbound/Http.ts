/**
 * Handlers of the `inbound` group over core's `Inbound`: the inbox of the request's API key (a test
 * key sees its simulated messages), a reply as an ordinary send of that key, a simulated message
 * (test keys only: a live key is answered 403).
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Inbound } from "@tuma/core"
import { Effect } from "effect"
import { TumaApi } from "../Api.js"
import { requestUid } from "../shared/Envelope.js"
import { Forbidden } from "../shared/Envelope.js"
import { toApiFailure } from "../shared/Errors.js"
import { CurrentApiKey } from "../shared/Security.js"
import { callerOf } from "../sms/caller.js"
import { sendAnswer } from "../sms/sendAnswer.js"

/** The success envelope, `mode: "sandbox"` for a test key. */
const answer = <D>(mode: "live" | "test", fields: D) =>
  Effect.map(requestUid, (request_uid) => ({
    success: true as const,
    request_uid,
    ...(mode === "test" ? { mode: "sandbox" as const } : {}),
    ...fields
  }))

/** The public API's inbox handlers. */
export const InboundLive = HttpApiBuilder.group(TumaApi, "inbound", (handlers) =>
  Effect.gen(function*() {
    const inbound = yield* Inbound
    return handlers
      .handle("listInbound", ({ urlParams }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          const page = yield* inbound.list(key, urlParams).pipe(Effect.mapError((e) => toApiFailure(e)))
          return yield* answer(key.mode, { data: page.data, meta: page.meta })
        }))
      .handle("getInbound", ({ path }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          const data = yield* inbound.get(key, path.uid).pipe(Effect.mapError((e) => toApiFailure(e)))
          return yield* answer(key.mode, { data })
        }))
      .handle("simulateInbound", ({ payload }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          if (key.mode !== "test") {
            return yield* Effect.fail(Forbidden.of({
              message: "Only a sandbox (test) key can simulate a received message.",
              error_code: "FORBIDDEN"
            }))
          }
          const data = yield* inbound.simulate(key, payload).pipe(Effect.mapError((e) => toApiFailure(e)))
          return yield* answer(key.mode, { data })
        }))
      .handle("getAutoReplies", () =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          return yield* answer(key.mode, { data: yield* inbound.autoReplies(key.accountId) })
        }))
      .handle("setAutoReplies", ({ payload }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          const data = yield* inbound.setAutoReplies(key.accountId, payload).pipe(
            Effect.mapError((e) => toApiFailure(e))
          )
          return yield* answer(key.mode, { data })
        }))
      .handle("replyInbound", ({ headers, path, payload }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          return yield* sendAnswer(inbound.reply(callerOf(key, headers["idempotency-key"]), path.uid, payload.body))
        }))
  }))

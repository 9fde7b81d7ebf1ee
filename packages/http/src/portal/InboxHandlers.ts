/**
 * Handlers of the portal's `portalInbox` group over core's `Inbound`: the signed-in user's account
 * (live messages; a sandbox key's simulated ones stay in the API), a reply as the user's `web` send
 * (`sendAs`: the API's routing, sender-ID, wallet, spam, opt-out and credit rules), the auto-reply
 * texts (changing them is an owner's endpoint).
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Inbound } from "@tuma/core"
import { Effect } from "effect"
import { TumaApi } from "../Api.js"
import { requestUid } from "../shared/Envelope.js"
import { CurrentPortalUser } from "./Api.js"
import { sendAs } from "./MessagingHandlers.js"
import { mapFailure, ok } from "./Views.js"

/** The portal reads live messages only. */
const live = Effect.map(CurrentPortalUser, (user) => ({ accountId: user.accountId, mode: "live" as const }))

/** The portal's inbox handlers. */
export const PortalInboxLive = HttpApiBuilder.group(TumaApi, "portalInbox", (handlers) =>
  Effect.gen(function*() {
    const inbound = yield* Inbound
    return handlers
      .handle("inbox", ({ urlParams }) =>
        Effect.gen(function*() {
          const caller = yield* live
          const page = yield* inbound.conversations(caller, urlParams)
          const unread = yield* inbound.unread(caller)
          return { success: true as const, request_uid: yield* requestUid, ...page, unread }
        }))
      .handle("inboxUnread", () =>
        Effect.flatMap(live, (caller) => Effect.flatMap(inbound.unread(caller), (unread) => ok({ unread }))))
      .handle("inboxConversation", ({ urlParams }) =>
        Effect.gen(function*() {
          const caller = yield* live
          const thread = yield* inbound.conversation(caller, urlParams.handset, urlParams.number).pipe(mapFailure)
          return yield* ok(thread)
        }))
      .handle("inboxReply", ({ headers, path, payload }) =>
        sendAs((caller, p: typeof payload) =>
          inbound.reply(caller, path.uid, p.body)
        )({ headers, payload }))
      .handle("inboxNumbers", () =>
        Effect.gen(function*() {
          const user = yield* CurrentPortalUser
          return yield* ok(yield* inbound.listNumbers(user.accountId))
        }))
      .handle("inboxAutoReplies", () =>
        Effect.gen(function*() {
          const user = yield* CurrentPortalUser
          return yield* ok(yield* inbound.autoReplies(user.accountId))
        }))
      .handle("setInboxAutoReplies", ({ payload }) =>
        Effect.gen(function*() {
          const user = yield* CurrentPortalUser
          return yield* ok(yield* inbound.setAutoReplies(user.accountId, payload).pipe(mapFailure))
        }))
  }))

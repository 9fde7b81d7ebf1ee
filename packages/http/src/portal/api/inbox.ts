/**
 * The portal's inbox (two-way SMS): conversations per handset and number with unread counts, one
 * conversation in both directions (opening it marks it read), a reply from the number the handset
 * wrote to (an ordinary `web` send), the account's numbers and keywords (read-only), and the
 * auto-reply texts (owners change them; members read them).
 */
import { get, put } from "@effect/platform/HttpApiEndpoint"
import { ConversationThreadView, ConversationView } from "@tuma/core/inbound/inbox"
import { AutoRepliesView, InboundNumberView } from "@tuma/core/inbound/views"
import { StoredString } from "@tuma/domain/storedText"
import { Schema } from "effect"
import { all, group, NumberFromQuery, ok, okList, opt, sendEndpoint } from "../../shared/apiSchemas.js"
import { ServiceUnavailable, successFields, TooManyRequests } from "../../shared/Envelope.js"
import * as Res from "../../shared/Responses.js"
import { forMember, forOwner } from "./shared.js"

/** A page of conversations. */
export const InboxQuery = Schema.Struct({
  page: opt(NumberFromQuery),
  per_page: opt(NumberFromQuery)
}).annotations(all)

/** The conversations, their page and the account's unread count. */
export const InboxList = Schema.Struct({
  ...successFields,
  data: Schema.Array(ConversationView),
  meta: Res.PageMeta,
  unread: Schema.Number
}).annotations({ identifier: "PortalInboxList" })
/** The conversations page. */
export type InboxList = typeof InboxList.Type

/** Which conversation: the handset and the account's number it wrote to. */
export const ConversationQuery = Schema.Struct({
  handset: StoredString,
  number: StoredString
}).annotations(all)

/** The account's unread count. */
export const InboxUnread = Schema.Struct({ unread: Schema.Number }).annotations({ identifier: "PortalInboxUnread" })

/** The body of a reply. */
export const InboxReplyInput = Schema.Struct({ body: Schema.String }).annotations({
  identifier: "PortalInboxReply",
  ...all
})

const Text = Schema.optional(Schema.NullOr(Schema.String))

/** The auto-reply texts: each absent, null or empty = the default. */
export const InboxAutoRepliesInput = Schema.Struct({
  stop_en: Text,
  stop_sw: Text,
  start_en: Text,
  start_sw: Text,
  help_en: Text,
  help_sw: Text
}).annotations({ identifier: "PortalAutoRepliesInput", ...all })

/** The inbox view types the browser app reads. */
export type { AutoRepliesView, ConversationThreadView, ConversationView, InboundNumberView }

/** The portal's inbox endpoints. */
export class PortalInboxGroup extends group("portalInbox", "Portal: inbox (two-way SMS)")
  .add(forMember(
    get("inbox", "/inbox").setUrlParams(InboxQuery).addSuccess(InboxList),
    "Conversations per handset and number, latest message first, with unread counts."
  ))
  .add(forMember(
    get("inboxUnread", "/inbox/unread").addSuccess(ok(InboxUnread, "PortalInboxUnreadResponse")),
    "Inbound messages not yet opened (the navigation's badge)."
  ))
  .add(forMember(
    get("inboxConversation", "/inbox/conversation").setUrlParams(ConversationQuery)
      .addSuccess(ok(ConversationThreadView, "PortalInboxThreadResponse")),
    "One conversation, both directions, newest first; opening it marks its messages read."
  ))
  .add(forMember(
    sendEndpoint(
      "inboxReply",
      "/inbox/:uid/reply",
      InboxReplyInput,
      Res.SendSingleResponse
    ).setPath(Schema.Struct({ uid: StoredString })).addError(TooManyRequests).addError(ServiceUnavailable),
    "Replies to an inbound message from the number it came in on, through every rule of a `web` send."
  ))
  .add(forMember(
    get("inboxNumbers", "/inbox/numbers").addSuccess(okList(InboundNumberView, "PortalInboxNumbersResponse")),
    "The account's numbers and keywords (assigned by operators)."
  ))
  .add(forMember(
    get("inboxAutoReplies", "/inbox/auto-replies").addSuccess(ok(AutoRepliesView, "PortalAutoRepliesResponse")),
    "The STOP, START and HELP automatic replies (null: the default)."
  ))
  .add(forOwner(
    put("setInboxAutoReplies", "/inbox/auto-replies").setPayload(InboxAutoRepliesInput)
      .addSuccess(ok(AutoRepliesView, "PortalSetAutoRepliesResponse")),
    "Changes the automatic replies (owners)."
  ))
{}

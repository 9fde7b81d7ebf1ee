/**
 * The portal's inbox over the `InboundStore`: conversations (a handset and the account's number it
 * wrote to, latest message first, with unread counts), one conversation in both directions (the
 * handset's messages and the account's sends to it from that number, newest first; opening it marks
 * its messages read), and the account's unread count. Unread is per inbound message (`read_at`).
 */
import type { ResourceNotFound } from "@tuma/domain"
import { normalizeRecipient, PER_PAGE_DEFAULT, PER_PAGE_MAX } from "@tuma/domain"
import { Clock, Effect, Either, Schema } from "effect"
import { notFound } from "../admin/context.js"
import type { InboundStore } from "../ports/InboundStore.js"
import type { PageMeta } from "../reads/Reads.js"

/** A conversation as the portal lists it. */
export const ConversationView = Schema.Struct({
  handset: Schema.String,
  number: Schema.String,
  last_text: Schema.String,
  last_at: Schema.String,
  messages: Schema.Number,
  unread: Schema.Number
}).annotations({ identifier: "InboxConversation" })
/** A conversation as the portal lists it. */
export type ConversationView = typeof ConversationView.Type

/** One message of a conversation: `in` from the handset, `out` sent by the account. */
export const ConversationMessageView = Schema.Struct({
  uid: Schema.String,
  direction: Schema.Literal("in", "out"),
  text: Schema.String,
  at: Schema.String,
  /** The send's status for `out`; null for `in`. */
  status: Schema.NullOr(Schema.String),
  /** `stop`, `start` or `help` for an opt-out family word; null otherwise. */
  command: Schema.NullOr(Schema.Literal("stop", "start", "help")),
  /** False when a long reply's parts did not all arrive. */
  complete: Schema.Boolean
}).annotations({ identifier: "InboxMessage" })
/** One message of a conversation. */
export type ConversationMessageView = typeof ConversationMessageView.Type

/** One conversation, newest message first; `marked_read` inbound messages became read by opening it. */
export const ConversationThreadView = Schema.Struct({
  handset: Schema.String,
  number: Schema.String,
  /** The inbound message a reply answers (the newest one). */
  reply_to: Schema.String,
  marked_read: Schema.Number,
  messages: Schema.Array(ConversationMessageView)
}).annotations({ identifier: "InboxThread" })
/** One conversation. */
export type ConversationThreadView = typeof ConversationThreadView.Type

/** Messages of each direction a conversation shows (the newest). */
export const THREAD_LIMIT = 100

/** Who reads the inbox: the account, and live or simulated messages. */
export interface InboxCaller {
  readonly accountId: string
  readonly mode: "live" | "test"
}

/** The inbox use cases. */
export interface Inbox {
  readonly conversations: (
    caller: InboxCaller,
    input: { readonly page?: number | undefined; readonly per_page?: number | undefined }
  ) => Effect.Effect<{ readonly data: ReadonlyArray<ConversationView>; readonly meta: PageMeta }>
  readonly conversation: (
    caller: InboxCaller,
    handset: string,
    number: string
  ) => Effect.Effect<ConversationThreadView, ResourceNotFound>
  readonly unread: (caller: InboxCaller) => Effect.Effect<number>
}

/** The inbox over the store. */
export const makeInbox = (store: InboundStore["Type"]): Inbox => ({
  conversations: (caller, input) =>
    Effect.gen(function*() {
      const perPage = Math.min(Math.max(Math.floor(input.per_page ?? PER_PAGE_DEFAULT), 1), PER_PAGE_MAX)
      const current = Math.max(Math.floor(input.page ?? 1), 1)
      const { rows, total } = yield* store.conversations(
        caller.accountId,
        caller.mode === "test",
        (current - 1) * perPage,
        perPage
      )
      return {
        data: rows.map((r) => ({ ...r, last_at: r.last_at.toISOString() })),
        meta: { current_page: current, per_page: perPage, total, last_page: Math.max(1, Math.ceil(total / perPage)) }
      }
    }),
  conversation: (caller, handsetInput, number) =>
    Effect.gen(function*() {
      const sandbox = caller.mode === "test"
      const parsed = normalizeRecipient(handsetInput)
      const handset = Either.isRight(parsed) ? parsed.right.e164 : handsetInput
      const { rows } = yield* store.list(caller.accountId, {
        sandbox,
        from: handset,
        to: number,
        offset: 0,
        limit: THREAD_LIMIT
      })
      const newest = rows[0]
      if (newest === undefined) return yield* notFound("conversation", `${handset}:${number}`)
      const sent = sandbox ? [] : yield* store.sentTo(caller.accountId, handset, number, THREAD_LIMIT)
      const at = new Date(yield* Clock.currentTimeMillis)
      const marked = yield* store.markRead(caller.accountId, sandbox, handset, number, at)
      const messages: Array<ConversationMessageView & { readonly t: number }> = [
        ...rows.map((r) => ({
          uid: r.id,
          direction: "in" as const,
          text: r.text,
          at: r.received_at.toISOString(),
          status: null,
          command: r.command,
          complete: r.complete,
          t: r.received_at.getTime()
        })),
        ...sent.map((s) => ({
          uid: s.id,
          direction: "out" as const,
          text: s.text,
          at: s.created_at.toISOString(),
          status: s.status,
          command: null,
          complete: true,
          t: s.created_at.getTime()
        }))
      ]
      messages.sort((a, b) => b.t - a.t)
      return {
        handset,
        number: newest.to_addr,
        reply_to: newest.id,
        marked_read: marked,
        messages: messages.map(({ t: _, ...m }) => m)
      }
    }),
  unread: (caller) => store.unread(caller.accountId, caller.mode === "test")
})

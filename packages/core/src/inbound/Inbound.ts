/**
 * Two-way SMS use cases: the operator's inbound numbers (assign, list, change, remove — audited;
 * conflicts refused by `@tuma/domain` `assignmentConflict`), the unrouted messages, and the
 * customer's side: the inbox (list, read), a reply (an ordinary send through `Send`, from the
 * number the message came in on), a simulated message for sandbox keys, and the auto-reply texts.
 * The views are Schemas (node-free) so the HTTP contract and the portal reuse them.
 */
import type { AutoReplyTexts, ResourceNotFound, ValidationFailed } from "@tuma/domain"
import {
  AUTO_REPLY_MAX_LENGTH,
  DEFAULT_AUTO_REPLIES,
  normalizeRecipient,
  PER_PAGE_DEFAULT,
  PER_PAGE_MAX
} from "@tuma/domain"
import { validationFailed } from "@tuma/domain/validation"
import { Clock, Context, Effect, Either, Layer, Option } from "effect"
import { notFound } from "../admin/context.js"
import { Audit } from "../audit/Audit.js"
import type { SentMessage } from "../MessageEntry.js"
import { Ids } from "../ports/Ids.js"
import { InboundStore } from "../ports/InboundStore.js"
import type { PageMeta } from "../reads/Reads.js"
import type { SendCaller, SendError, SendOutcome } from "../send/model.js"
import { Send } from "../send/Send.js"
import { makeInbox } from "./inbox.js"
import type { Inbox } from "./inbox.js"
import { makeNumbers } from "./numbers.js"
import type { InboundNumbers } from "./numbers.js"
import type { AutoRepliesView, InboundListInput, InboundMessageView, SimulateInput } from "./views.js"
import { inboundMessageView } from "./views.js"

// ---------------------------------------------------------------------------------------------
// The service
// ---------------------------------------------------------------------------------------------

/** Who reads the inbox: the key's account and mode (a test key sees its simulated messages). */
export interface InboundCaller {
  readonly accountId: string
  readonly mode: "live" | "test"
}

/** A page of inbound messages and its `meta` (the message list's). */
export interface InboundPage {
  readonly data: ReadonlyArray<InboundMessageView>
  readonly meta: PageMeta
}

/** The two-way SMS use cases (the operator's numbers: `InboundNumbers`; the portal's inbox: `Inbox`). */
export interface InboundService extends InboundNumbers, Inbox {
  readonly listUnrouted: (input: InboundListInput) => Effect.Effect<InboundPage, ValidationFailed>
  // customer
  readonly list: (caller: InboundCaller, input: InboundListInput) => Effect.Effect<InboundPage, ValidationFailed>
  readonly get: (caller: InboundCaller, uid: string) => Effect.Effect<InboundMessageView, ResourceNotFound>
  /** Replies from the number the message came in on, through every rule of a normal send. */
  readonly reply: (
    caller: SendCaller,
    uid: string,
    body: string
  ) => Effect.Effect<SendOutcome<SentMessage>, SendError | ResourceNotFound>
  /** A simulated message from a handset to the account (sandbox keys), stored and delivered as a real one. */
  readonly simulate: (
    caller: InboundCaller,
    input: SimulateInput
  ) => Effect.Effect<InboundMessageView, ValidationFailed>
  readonly autoReplies: (accountId: string) => Effect.Effect<AutoRepliesView>
  readonly setAutoReplies: (
    accountId: string,
    texts: AutoReplyTexts
  ) => Effect.Effect<AutoRepliesView, ValidationFailed>
}

/** The two-way SMS use cases. */
export class Inbound extends Context.Tag("@tuma/core/Inbound")<Inbound, InboundService>() {
  /** Over the `InboundStore`, `Send`, `Audit` and `Ids`. */
  static readonly layer: Layer.Layer<Inbound, never, InboundStore | Send | Audit | Ids> = Layer.effect(
    Inbound,
    Effect.gen(function*() {
      const store = yield* InboundStore
      const send = yield* Send
      const audit = yield* Audit
      const ids = yield* Ids
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

      const page = (input: InboundListInput) =>
        Effect.gen(function*() {
          const errors: Record<string, Array<string>> = {}
          const since = input.since === undefined ? undefined : new Date(input.since)
          if (since !== undefined && Number.isNaN(since.getTime())) {
            errors.since = ["The since field must be a date-time."]
          }
          if (Object.keys(errors).length > 0) return yield* validationFailed(errors)
          const perPage = Math.min(Math.max(Math.floor(input.per_page ?? PER_PAGE_DEFAULT), 1), PER_PAGE_MAX)
          const current = Math.max(Math.floor(input.page ?? 1), 1)
          return { since, perPage, current }
        })

      const listOf = (accountId: string | null, sandbox: boolean, input: InboundListInput) =>
        Effect.gen(function*() {
          const p = yield* page(input)
          const { rows, total } = yield* store.list(accountId, {
            sandbox,
            from: input.from,
            to: input.to,
            since: p.since,
            offset: (p.current - 1) * p.perPage,
            limit: p.perPage
          })
          return {
            data: rows.map(inboundMessageView),
            meta: {
              current_page: p.current,
              per_page: p.perPage,
              total,
              last_page: Math.max(1, Math.ceil(total / p.perPage))
            }
          }
        })

      const autoReplies = (accountId: string) =>
        Effect.map(store.settings(accountId), (t): AutoRepliesView => ({
          stop_en: t.stop_en ?? null,
          stop_sw: t.stop_sw ?? null,
          start_en: t.start_en ?? null,
          start_sw: t.start_sw ?? null,
          help_en: t.help_en ?? null,
          help_sw: t.help_sw ?? null,
          defaults: { ...DEFAULT_AUTO_REPLIES }
        }))

      return Inbound.of({
        ...makeNumbers(store, audit, ids),
        ...makeInbox(store),
        listUnrouted: (input) => listOf(null, false, input),
        list: (caller, input) => listOf(caller.accountId, caller.mode === "test", input),
        get: (caller, uid) =>
          store.get(caller.accountId, uid).pipe(
            Effect.flatMap(Option.match({
              onNone: () => Effect.fail(notFound("inbound_message", uid)),
              onSome: (r) =>
                r.sandbox === (caller.mode === "test")
                  ? Effect.succeed(inboundMessageView(r))
                  : Effect.fail(notFound("inbound_message", uid))
            }))
          ),
        reply: (caller, uid, body) =>
          Effect.gen(function*() {
            const found = yield* store.get(caller.accountId, uid)
            if (Option.isNone(found) || found.value.sandbox !== (caller.mode === "test")) {
              return yield* notFound("inbound_message", uid)
            }
            const m = found.value
            // from the number it came in on, as the operator assigned it (`+…` for a long number)
            const numbers = yield* store.listNumbers(caller.accountId)
            const own = numbers.find((n) => n.number.replace(/\D/g, "") === m.to_addr.replace(/\D/g, ""))
            return yield* send.single(caller, {
              recipient: m.from_addr,
              sender_id: own?.number ?? m.to_addr,
              body
            })
          }),
        simulate: (caller, input) =>
          Effect.gen(function*() {
            const errors: Record<string, Array<string>> = {}
            const from = normalizeRecipient(input.from)
            if (Either.isLeft(from)) errors.from = [from.left.message]
            if (input.text.length === 0 || input.text.length > 1600) {
              errors.text = ["The text field must be 1 to 1600 characters."]
            }
            if (input.text.includes("\u0000")) errors.text = ["The text field must not contain the NUL character."]
            const numbers = yield* store.listNumbers(caller.accountId)
            const to = input.to ?? numbers[0]?.number ?? "SANDBOX"
            if (Either.isLeft(from) || Object.keys(errors).length > 0) return yield* validationFailed(errors)
            const at = yield* now
            const outcome = yield* store.record([{
              provider: "sandbox",
              from: from.right.e164,
              to,
              text: input.text,
              encoding: /^[\x20-\x7e\n\r]*$/.test(input.text) ? "GSM-7" : "UCS-2",
              concat: null,
              receivedAt: at,
              sandboxAccountId: caller.accountId
            }], at)
            const id = outcome.messageIds[0]
            if (id === undefined) {
              return yield* validationFailed({ text: ["The same text from this handset was simulated moments ago."] })
            }
            const row = yield* store.get(caller.accountId, id)
            return inboundMessageView(Option.getOrThrow(row))
          }),
        autoReplies,
        setAutoReplies: (accountId, texts) =>
          Effect.gen(function*() {
            const errors: Record<string, Array<string>> = {}
            for (const [k, v] of Object.entries(texts)) {
              if (typeof v === "string" && (v.length > AUTO_REPLY_MAX_LENGTH || v.includes("\u0000"))) {
                errors[k] = [`The ${k} text must be at most ${AUTO_REPLY_MAX_LENGTH} characters.`]
              }
            }
            if (Object.keys(errors).length > 0) return yield* validationFailed(errors)
            const blank = (v: string | null | undefined) => v === undefined || v === null || v.trim() === "" ? null : v
            yield* store.saveSettings(accountId, {
              stop_en: blank(texts.stop_en),
              stop_sw: blank(texts.stop_sw),
              start_en: blank(texts.start_en),
              start_sw: blank(texts.start_sw),
              help_en: blank(texts.help_en),
              help_sw: blank(texts.help_sw)
            }, yield* now)
            return yield* autoReplies(accountId)
          })
      })
    })
  )
}

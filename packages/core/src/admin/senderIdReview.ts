/**
 * Sender IDs: list, read (with documents), grant, and the moves of decisions §18 (approve, reject, suspend, reinstate) as compare-and-set on the status.
 */
import type { SenderIdEvent } from "@tuma/domain"
import {
  SENDER_ID_MAX_LENGTH,
  SENDER_ID_MIN_LENGTH,
  SENDER_ID_PATTERN,
  SenderIdAlreadyRequested,
  transitionSenderId
} from "@tuma/domain"
import { Effect, Option } from "effect"
import type { SenderIdRow } from "../ports/OperatorStore.js"
import type { AdminContext } from "./context.js"
import { clampLimit, invalid, notFound, UUID } from "./context.js"
import type { AdminService } from "./service.js"
import { documentView, senderIdAdminView } from "./viewsOf.js"

/** A granted name as written: trimmed, spaces collapsed (`display`), and uppercased (`name`). */
export const grantedSenderIdName = (raw: string) => {
  const display = raw.trim().replace(/\s+/g, " ")
  return { name: display.toUpperCase(), display }
}

/**
 * The record of an operator's grant, the one both grants write (`Admin.grantSenderId` inserts it,
 * refusing a duplicate; `Operator.grantSenderId` upserts it, moving an existing one): the account,
 * market and name as given, `approved`, no purpose, not default, not global and no sample message
 * unless said.
 */
export const grantedSenderId = (grant: {
  readonly id: string
  readonly accountId: string
  readonly marketId: string
  readonly name: { readonly name: string; readonly display: string }
  /** Default `approved`. */
  readonly status?: SenderIdRow["status"] | undefined
  readonly isDefault?: boolean | undefined
  readonly isGlobal?: boolean | undefined
  readonly sampleMessage?: string | undefined
}): Omit<SenderIdRow, "requested_at" | "updated_at"> => ({
  id: grant.id,
  account_id: grant.accountId,
  market_id: grant.marketId,
  name: grant.name.name,
  display_name: grant.name.display,
  status: grant.status ?? "approved",
  is_default: grant.isDefault ?? false,
  is_global: grant.isGlobal ?? false,
  sample_message: grant.sampleMessage ?? "",
  purpose: null
})

/** Sender IDs: list, read (with documents), grant, and the moves of decisions §18 (approve, reject, suspend, reinstate) as compare-and-set on the status. */
export const makeSenderIdReview = (
  ctx: AdminContext
): Pick<
  AdminService,
  | "listSenderIds"
  | "getSenderId"
  | "getSenderIdDocument"
  | "grantSenderId"
  | "approveSenderId"
  | "rejectSenderId"
  | "suspendSenderId"
  | "reinstateSenderId"
> => {
  const { senderIds, ids, now, account, market, senderIdRow } = ctx
  // --- sender-ID moves ----------------------------------------------------------------------

  const moveSenderId = (id: string, event: SenderIdEvent) =>
    Effect.gen(function*() {
      for (let attempt = 0; attempt < 5; attempt++) {
        const row = yield* senderIdRow(id)
        const next = yield* transitionSenderId(row.status, event)
        const at = yield* now
        const changed = yield* senderIds.changeStatus({
          id,
          from: row.status,
          to: next,
          rejection_reason: event.type === "reject" ? event.reason.trim() : null,
          suspension_reason: event.type === "suspend" ? (event.reason?.trim() || null) : null,
          at: at.getTime() < row.updated_at.getTime() ? row.updated_at : at
        })
        if (Option.isSome(changed)) return senderIdAdminView(changed.value)
        // the status moved under us: read again and re-decide
      }
      return yield* Effect.dieMessage(`Sender ID ${id}: its status kept changing during the update`)
    })

  return {
    listSenderIds: (input = {}) =>
      Effect.map(
        senderIds.list({
          accountId: input.account_uid !== undefined && UUID.test(input.account_uid) ? input.account_uid : undefined,
          status: input.status,
          limit: clampLimit(input.limit, 100, 1000),
          offset: Math.max(0, Math.floor(input.offset ?? 0))
        }),
        (rows) => input.account_uid !== undefined && !UUID.test(input.account_uid) ? [] : rows.map(senderIdAdminView)
      ),

    getSenderId: (senderIdId) =>
      Effect.gen(function*() {
        const row = yield* senderIdRow(senderIdId)
        const docs = yield* senderIds.documents(senderIdId)
        return { sender_id: senderIdAdminView(row), documents: docs.map(documentView) }
      }),

    getSenderIdDocument: (documentId) =>
      Effect.gen(function*() {
        const found = UUID.test(documentId) ? yield* senderIds.documentContent(documentId) : Option.none()
        if (Option.isNone(found)) return yield* notFound("document", documentId)
        return { document: documentView(found.value), content: found.value.content }
      }),

    grantSenderId: (input) =>
      Effect.gen(function*() {
        // operators may grant reserved names (a bank its BANK name); length and pattern still apply
        const granted = grantedSenderIdName(typeof input.sender_id === "string" ? input.sender_id : "")
        const { display, name } = granted
        if (
          display.length < SENDER_ID_MIN_LENGTH || display.length > SENDER_ID_MAX_LENGTH ||
          !SENDER_ID_PATTERN.test(display)
        ) {
          return yield* invalid(
            "sender_id",
            `The sender_id field must be ${SENDER_ID_MIN_LENGTH} to ${SENDER_ID_MAX_LENGTH} letters, digits and single spaces.`
          )
        }
        const m = yield* market(input.country)
        yield* account(input.account_uid)
        const at = yield* now
        const inserted = yield* senderIds.insert({
          ...grantedSenderId({
            id: yield* ids.uuidV7,
            accountId: input.account_uid,
            marketId: m.id,
            name: granted,
            isDefault: input.is_default,
            isGlobal: input.is_global,
            sampleMessage: input.sample_message
          }),
          protection_requested: false,
          at,
          documents: []
        })
        if (Option.isNone(inserted)) {
          return yield* new SenderIdAlreadyRequested({
            message: `The account already has the sender ID ${name} for ${m.name}; move that record instead.`,
            sender_id: name
          })
        }
        return senderIdAdminView(inserted.value)
      }),

    approveSenderId: (id) => moveSenderId(id, { type: "approve" }),
    rejectSenderId: (id, reason) => moveSenderId(id, { type: "reject", reason }),
    suspendSenderId: (id, reason) => moveSenderId(id, { type: "suspend", reason: reason ?? undefined }),
    reinstateSenderId: (id) => moveSenderId(id, { type: "reinstate" })
  }
}

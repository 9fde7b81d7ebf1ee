/** Handlers of the console's overview, customer accounts and their credit (top-ups, corrections, ledger). */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Reads } from "@tuma/core"
import * as ManualRules from "@tuma/core/operators/ManualRules"
import { emailProblem } from "@tuma/core/portal/PortalAccess"
import { validationFailed } from "@tuma/domain/validation"
import { Effect } from "effect"
import { TumaApi } from "../../Api.js"
import { inviteOwner } from "../../portal/OwnerInvitation.js"
import { PortalRequest } from "../../portal/Session.js"
import { asOperator } from "../Http.js"
import { overview } from "../Overview.js"
import { admin } from "./helpers.js"

export const ConsoleAccountsLive = HttpApiBuilder.group(
  TumaApi,
  "consoleAccounts",
  (handlers) =>
    Effect.map(PortalRequest, (portal) =>
      handlers
        .handle("overview", () =>
          asOperator(() =>
            Effect.zipWith(
              overview,
              admin((a) => a.carrierWarnings),
              (figures, warnings) => ({ ...figures, warnings })
            )
          ))
        .handle("list", ({ urlParams }) => asOperator(() => admin((a) => a.listAccounts(urlParams))))
        .handle("create", ({ payload: { owner_email, ...input }, request }) =>
          asOperator(() =>
            Effect.gen(function*() {
              const ownerEmail = owner_email ?? input.email
              const problem = emailProblem(ownerEmail)
              if (problem !== undefined) return yield* validationFailed({ owner_email: [problem] })
              const account = yield* admin((a) => a.createAccount(input))
              const owner_invitation = yield* inviteOwner(account.uid, ownerEmail, portal.baseUrl(request))
              return {
                ...account,
                owner_invitation: owner_invitation === null ? null : { email: owner_invitation.email }
              }
            })
          ))
        .handle("get", ({ path }) =>
          asOperator(() =>
            Effect.gen(function*() {
              const detail = yield* admin((a) => a.getAccount(path.uid))
              const senderIds = yield* admin((a) => a.listSenderIds({ account_uid: path.uid }))
              const reads = yield* Reads
              const messages = yield* reads.listMessages(path.uid, { per_page: 20 })
              return { ...detail, sender_ids: senderIds, recent_messages: messages }
            })
          ))
        .handle("suspend", ({ path }) => asOperator(() => admin((a) => a.suspendAccount(path.uid))))
        .handle("activate", ({ path }) => asOperator(() => admin((a) => a.activateAccount(path.uid))))
        .handle("topUp", ({ path, payload: { reference, ...input } }) =>
          asOperator(() =>
            Effect.flatMap(
              ManualRules.topUpReference(reference),
              (checked) => admin((a) => a.purchaseCredits({ ...input, account_uid: path.uid, reference: checked }))
            )
          ))
        .handle("correct", ({ path, payload }) =>
          asOperator(() =>
            admin((a) =>
              a.correctCredits({
                account_uid: path.uid,
                country: payload.country.trim(),
                units: payload.units,
                reason: payload.reason,
                ...(payload.corrects === undefined ? {} : { corrects: payload.corrects })
              })
            )
          ))
        .handle(
          "ledger",
          ({ path, urlParams }) => asOperator(() => admin((a) => a.ledger(path.uid, { ...urlParams, limit: 200 })))
        ))
)

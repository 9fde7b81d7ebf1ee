/** The console's routes of the overview, customer accounts and their credit. */
import { Reads } from "@tuma/core"
import * as ManualRules from "@tuma/core/operators/ManualRules"
import { emailProblem } from "@tuma/core/portal/PortalAccess"
import { validationFailed } from "@tuma/domain/validation"
import { Effect, Schema } from "effect"
import { inviteOwner } from "../../portal/OwnerInvitation.js"
import { CountryText, Num, OptionalText, param, route, Text, withBody, withQuery } from "../Http.js"
import { overview } from "../Overview.js"
import type { ConsoleRoutes } from "./context.js"
import { admin } from "./helpers.js"

/** Registers the routes of the overview, customer accounts and their credit. */
export const accountsRoutes = ({ base, on, portal }: ConsoleRoutes) =>
  Effect.gen(function*() {
    // --- overview ----------------------------------------------------------------------------
    yield* on.get(
      `${base}/overview`,
      route("read", () => overview)
    )

    // --- accounts ----------------------------------------------------------------------------
    yield* on.get(
      `${base}/accounts`,
      route(
        "read",
        withQuery(Schema.Struct({ search: OptionalText }), (_, query) => admin((a) => a.listAccounts(query)))
      )
    )
    yield* on.post(
      `${base}/accounts`,
      route(
        "accounts.manage",
        withBody(
          Schema.Struct({
            name: Text,
            email: Text,
            country: OptionalText,
            phone: OptionalText,
            owner_email: OptionalText
          }),
          (ctx, { owner_email, ...input }) =>
            Effect.gen(function*() {
              const ownerEmail = owner_email ?? input.email
              const problem = emailProblem(ownerEmail)
              if (problem !== undefined) return yield* validationFailed({ owner_email: [problem] })
              const account = yield* admin((a) => a.createAccount(input))
              const owner_invitation = yield* inviteOwner(account.uid, ownerEmail, portal.baseUrl(ctx.request))
              return {
                ...account,
                owner_invitation: owner_invitation === null ? null : { email: owner_invitation.email }
              }
            })
        )
      )
    )
    yield* on.get(
      `${base}/accounts/:uid`,
      route("read", (ctx) =>
        Effect.gen(function*() {
          const id = param(ctx, "uid")
          const detail = yield* admin((a) => a.getAccount(id))
          const senderIds = yield* admin((a) => a.listSenderIds({ account_uid: id }))
          const reads = yield* Reads
          const messages = yield* reads.listMessages(id, { per_page: 20 })
          return { ...detail, sender_ids: senderIds, recent_messages: messages }
        }))
    )
    for (const [action, f] of [["suspend", "suspendAccount"], ["activate", "activateAccount"]] as const) {
      yield* on.post(
        `${base}/accounts/:uid/${action}`,
        route("accounts.manage", (ctx) => admin((a) => a[f](param(ctx, "uid"))))
      )
    }

    // --- credit ------------------------------------------------------------------------------
    yield* on.post(
      `${base}/accounts/:uid/top-ups`,
      route(
        "credit.manage",
        withBody(
          Schema.Struct({
            country: CountryText,
            units: Num,
            amount: OptionalText,
            currency: OptionalText,
            reference: OptionalText
          }),
          (ctx, { reference, ...input }) =>
            Effect.flatMap(
              ManualRules.topUpReference(reference),
              (checked) =>
                admin((a) => a.purchaseCredits({ ...input, account_uid: param(ctx, "uid"), reference: checked }))
            )
        )
      )
    )
    yield* on.get(
      `${base}/accounts/:uid/ledger`,
      route(
        "read",
        withQuery(
          Schema.Struct({ country: OptionalText }),
          (ctx, query) => admin((a) => a.ledger(param(ctx, "uid"), { ...query, limit: 200 }))
        )
      )
    )
  })

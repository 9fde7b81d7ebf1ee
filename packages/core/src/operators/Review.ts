/**
 * Sender-ID review as the console does it: the `Admin` move (approve, reject with a
 * reason, suspend) and then the customer told by e-mail (the account's e-mail). The portal shows
 * the new status and the reason from the same row. An e-mail that cannot be sent is logged; the
 * decision stands.
 */
import type { IllegalTransition, ResourceNotFound, ValidationFailed } from "@tuma/domain"
import { Context, Effect, Layer } from "effect"
import { Admin } from "../admin/Admin.js"
import type { SenderIdAdminView } from "../admin/views.js"
import type { MailNotice } from "../ports/Notifiers.js"
import { Mailer } from "../ports/Notifiers.js"

/** What a reviewer can decide about a sender ID. */
export type ReviewDecision = "approve" | "reject" | "suspend"

/** The review with its customer notice. */
export class SenderIdReview extends Context.Tag("@tuma/core/SenderIdReview")<SenderIdReview, {
  readonly decide: (
    senderIdId: string,
    decision: ReviewDecision,
    reason: string | null
  ) => Effect.Effect<ReviewOutcome, ResourceNotFound | IllegalTransition | ValidationFailed>
}>() {}

/** The sender ID after a decision, and where the customer's notice went (`sent` only when mailed). */
export type ReviewOutcome = SenderIdAdminView & { readonly customer_mail: MailNotice }

const subject: Record<ReviewDecision, (name: string) => string> = {
  approve: (name) => `Your sender ID ${name} is approved`,
  reject: (name) => `Your sender ID ${name} was not approved`,
  suspend: (name) => `Your sender ID ${name} is suspended`
}

/** `SenderIdReview` over `Admin` and the `Mailer`. */
export const layer: Layer.Layer<SenderIdReview, never, Admin | Mailer> = Layer.effect(
  SenderIdReview,
  Effect.gen(function*() {
    const admin = yield* Admin
    const mailer = yield* Mailer
    return {
      decide: (id, decision, reason) =>
        Effect.gen(function*() {
          const view = decision === "approve"
            ? yield* admin.approveSenderId(id)
            : decision === "reject"
            ? yield* admin.rejectSenderId(id, reason ?? "")
            : yield* admin.suspendSenderId(id, reason)
          const account = yield* Effect.either(admin.getAccount(view.account_uid))
          let customerMail: MailNotice = "failed"
          if (account._tag === "Right") {
            const lines = [
              `${subject[decision](view.sender_id)} for ${view.country_name}.`,
              ...(reason !== null && reason !== "" ? [`\nReason: ${reason}`] : []),
              decision === "approve" ? "\nYou can send with it now." : "",
              "\nSee it in the portal under Sender IDs."
            ]
            customerMail = yield* mailer.send({
              to: account.right.account.email,
              subject: subject[decision](view.sender_id),
              text: lines.join("\n") + "\n"
            }).pipe(
              Effect.catchAll((e) => Effect.as(Effect.logWarning("sender-ID notice not sent", e), "failed" as const))
            )
          }
          return { ...view, customer_mail: customerMail }
        })
    }
  })
)

/** What several areas of the console's handlers share: statuses they filter on, the session's view, decisions. */
import { Admin } from "@tuma/core"
import type { DeliveryStatus } from "@tuma/core"
import * as ManualRules from "@tuma/core/operators/ManualRules"
import { OperatorAccess } from "@tuma/core/operators/OperatorAccess"
import type { OperatorSignedIn } from "@tuma/core/operators/OperatorAccess"
import { SenderIdReview } from "@tuma/core/operators/Review"
import type { ReviewDecision } from "@tuma/core/operators/Review"
import { WebhookAdmin } from "@tuma/core/webhooks/WebhookAdmin"
import { SenderIdStatus } from "@tuma/domain/stateMachines"
import { Effect, Schema } from "effect"

export const randomToken = () => {
  const bytes = new Uint8Array(32)
  crypto.getRandomValues(bytes)
  return Buffer.from(bytes).toString("base64url")
}

/** The statuses a list may filter on (another value answers 422 `VALIDATION_FAILED`). */
export const senderIdStatus = Schema.decodeUnknown(SenderIdStatus)
export const deliveryStatus = Schema.decodeUnknown(
  Schema.Literal("pending", "succeeded", "failed", "skipped") satisfies Schema.Schema<DeliveryStatus>
)

/** The operator as the session answers it. */
export const sessionView = (
  signedIn: { operator: OperatorSignedIn["operator"]; session: OperatorSignedIn["session"] }
) =>
  Effect.map(OperatorAccess, (access) => ({
    operator: {
      uid: signedIn.operator.id,
      email: signedIn.operator.email,
      name: signedIn.operator.name,
      role: signedIn.operator.role,
      totp_enrolled: signedIn.operator.totp_secret !== null
    },
    csrf_token: signedIn.session.csrf_token,
    idle_expires_at: access.expiresAt(signedIn.session).idle.toISOString()
  }))

export const admin = <A, E>(f: (a: Admin["Type"]) => Effect.Effect<A, E>) => Effect.flatMap(Admin, f)
export const hooks = <A, E>(f: (w: WebhookAdmin["Type"]) => Effect.Effect<A, E>) => Effect.flatMap(WebhookAdmin, f)
export const operators = <A, E>(f: (a: OperatorAccess["Type"]) => Effect.Effect<A, E>) =>
  Effect.flatMap(OperatorAccess, f)

/** A reviewer's decision on a sender ID (a rejection needs its reason). */
export const decide = (decision: ReviewDecision, uid: string, reason: string | undefined) =>
  Effect.flatMap(SenderIdReview, (review) =>
    Effect.flatMap(
      decision === "reject" ? ManualRules.rejectionReason(reason) : Effect.succeed(reason ?? null),
      (checked) => review.decide(uid, decision, checked)
    ))

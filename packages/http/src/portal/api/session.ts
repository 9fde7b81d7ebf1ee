/**
 * The portal's session endpoints: sign in and out, CSRF token, invitations, password reset.
 */
import { del, get, post } from "@effect/platform/HttpApiEndpoint"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Views from "@tuma/core/admin/views"
import { StoredString } from "@tuma/domain/storedText"
import { Schema } from "effect"
import { all, group, ok, opt, Ts } from "../../shared/apiSchemas.js"
import { TooManyRequests, Unauthorized } from "../../shared/Envelope.js"
import { beforeSignIn, forMember, PortalDone, PortalRole, PortalUser } from "./shared.js"
export const PortalAccount = Views.AccountView.pick("uid", "name", "email", "active").annotations({
  identifier: "PortalAccount"
})
export type PortalAccount = typeof PortalAccount.Type

export const SessionView = Schema.Struct({
  user: PortalUser,
  account: PortalAccount,
  /** Send it as `X-CSRF-Token` on every state change of this session. */
  csrf_token: Schema.String,
  idle_expires_at: Ts,
  absolute_expires_at: Ts
}).annotations({ identifier: "PortalSessionView" })
export type SessionView = typeof SessionView.Type

export const SignInInput = Schema.Struct({
  email: StoredString,
  password: StoredString,
  /** The second factor: a TOTP code or a recovery code (asked for after the right password). */
  code: opt(StoredString)
}).annotations({ identifier: "PortalSignIn", ...all })

export const CsrfView = Schema.Struct({ csrf_token: Schema.String }).annotations({ identifier: "PortalCsrf" })

export const InvitationPreview = Schema.Struct({
  email: Schema.String,
  account_name: Schema.String,
  role: PortalRole,
  expires_at: Ts
}).annotations({ identifier: "PortalInvitationPreview" })

export const AcceptInvitationInput = Schema.Struct({
  token: StoredString,
  password: StoredString,
  name: opt(StoredString)
}).annotations({ identifier: "PortalAcceptInvitation", ...all })

export const PasswordResetRequestInput = Schema.Struct({ email: StoredString }).annotations({
  identifier: "PortalPasswordResetRequest",
  ...all
})
export const PasswordResetCompleteInput = Schema.Struct({ token: StoredString, password: StoredString })
  .annotations({ identifier: "PortalPasswordResetComplete", ...all })

const SessionResponse = ok(SessionView, "PortalSessionResponse")

/** A TOTP enrolment to finish: its secret and `otpauth://` address (shown as a QR code). */
export const TwoFactorEnrolmentView = Schema.Struct({ secret: Schema.String, uri: Schema.String })
  .annotations({ identifier: "PortalTwoFactorEnrolment" })

/**
 * A sign-in's answer: the session (with the recovery codes of an enrolment made now, shown once),
 * or the second factor to give: `code_required`, or `enrolment_required` (the account requires it).
 */
export const SignInView = Schema.Union(
  Schema.Struct({
    ...SessionView.fields,
    recovery_codes: Schema.optionalWith(Schema.Array(Schema.String), { exact: true })
  }),
  Schema.Struct({ two_factor: Schema.Literal("code_required") }),
  Schema.Struct({ two_factor: Schema.Literal("enrolment_required"), enrolment: TwoFactorEnrolmentView })
).annotations({ identifier: "PortalSignInView" })

export class PortalSessionGroup extends group("portalSession", "Portal: session")
  .add(
    get("csrf", "/session/csrf")
      .addSuccess(ok(CsrfView, "PortalCsrfResponse"))
      .annotate(
        OpenApi.Description,
        "The token to send as X-CSRF-Token: the session's when signed in, else a pre-session token " +
          "(also set as the tuma_portal_csrf cookie) for sign-in, invitations and password reset."
      )
  )
  .add(beforeSignIn(
    post("signIn", "/session").setPayload(SignInInput).addSuccess(ok(SignInView, "PortalSignInResponse"))
      .addError(Unauthorized).addError(TooManyRequests),
    "A new session id on every sign-in (any earlier session cookie is ended). With two-factor sign-in, " +
      "the right password alone answers `two_factor` (send again with `code`)."
  ))
  .add(forMember(get("me", "/session").addSuccess(SessionResponse)))
  .add(forMember(del("signOut", "/session").addSuccess(PortalDone)))
  .add(forMember(
    post("signOutEverywhere", "/session/sign-out-everywhere").addSuccess(PortalDone),
    "Ends every session of this user, this one included."
  ))
  .add(
    get("getInvitation", "/invitations/:token").setPath(Schema.Struct({ token: Schema.String }))
      .addSuccess(ok(InvitationPreview, "PortalInvitationPreviewResponse"))
  )
  .add(beforeSignIn(
    post("acceptInvitation", "/invitations/accept").setPayload(AcceptInvitationInput).addSuccess(SessionResponse),
    "Creates the user with this password and signs in."
  ))
  .add(beforeSignIn(
    post("requestPasswordReset", "/password-reset").setPayload(PasswordResetRequestInput)
      .addSuccess(PortalDone, { status: 202 }).addError(TooManyRequests),
    "Always 202 (whether the address is known is not told); mails a link."
  ))
  .add(beforeSignIn(
    post("completePasswordReset", "/password-reset/complete").setPayload(PasswordResetCompleteInput)
      .addSuccess(PortalDone),
    "Sets the password and ends every session of the user."
  ))
{}

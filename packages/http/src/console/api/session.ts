/** The console's session endpoints: CSRF token, sign-in with TOTP, session, sign-out, recovery codes, invitations. */
import { del, get, post } from "@effect/platform/HttpApiEndpoint"
import { Schema } from "effect"
import { ok } from "../../shared/apiSchemas.js"
import { beforeSignIn, body, ConsoleDone, consoleGroup, needs, OptionalText, Text } from "./shared.js"

export const ConsoleCsrf = ok(Schema.Struct({ csrf_token: Schema.String }), "ConsoleCsrfResponse")
export const ConsoleOperatorView = Schema.Struct({
  uid: Schema.String,
  email: Schema.String,
  name: Schema.String,
  role: Schema.String,
  totp_enrolled: Schema.Boolean
}).annotations({ identifier: "ConsoleOperatorView" })
export const ConsoleSessionView = Schema.Struct({
  operator: ConsoleOperatorView,
  csrf_token: Schema.String,
  idle_expires_at: Schema.String
}).annotations({ identifier: "ConsoleSessionView" })
/** A sign-in: the session (with the recovery codes of a first enrolment), or the TOTP enrolment to finish. */
export const ConsoleSignedIn = ok(
  Schema.Union(
    Schema.Struct({ ...ConsoleSessionView.fields, recovery_codes: Schema.NullOr(Schema.Array(Schema.String)) }),
    Schema.Struct({ enrolment: Schema.Struct({ secret: Schema.String, uri: Schema.String }) })
  ),
  "ConsoleSignedInResponse"
)
export const SignInBody = body({ email: Text, password: Text, code: Text }, "ConsoleSignIn")
export const AcceptInvitationBody = body({ token: Text, password: Text, name: OptionalText }, "ConsoleAcceptInvitation")

export class ConsoleSessionGroup extends consoleGroup("consoleSession", "Console: session")
  .add(get("csrf", "/session/csrf").addSuccess(ConsoleCsrf))
  .add(beforeSignIn(
    post("signIn", "/session").setPayload(SignInBody).addSuccess(ConsoleSignedIn)
  ))
  .add(needs("signed-in")(get("me", "/session").addSuccess(ok(ConsoleSessionView, "ConsoleSessionResponse"))))
  .add(needs("signed-in")(del("signOut", "/session").addSuccess(ConsoleDone)))
  .add(
    needs("signed-in")(
      post("regenerateRecoveryCodes", "/session/recovery-codes")
        .addSuccess(ok(Schema.Struct({ recovery_codes: Schema.Array(Schema.String) }), "ConsoleRecoveryCodes"))
    )
  )
  .add(
    get("getInvitation", "/invitations/:token").setPath(Schema.Struct({ token: Schema.String }))
      .addSuccess(ok(Schema.Unknown, "ConsoleInvitationResponse"))
  )
  .add(beforeSignIn(
    post("acceptInvitation", "/invitations/accept").setPayload(AcceptInvitationBody)
      .addSuccess(ok(Schema.Unknown, "ConsoleAcceptedInvitation"))
  ))
{}

/** Handlers of the console's session: CSRF token, sign-in with TOTP, sign-out, recovery codes, invitations. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { PortalConfig } from "@tuma/core/portal/PortalConfig"
import { Effect } from "effect"
import { TumaApi } from "../../Api.js"
import { PortalRequest } from "../../portal/Session.js"
import { anonymously, asOperator, CONSOLE_CSRF_COOKIE, CONSOLE_SESSION_COOKIE, cookieOptions, okJson } from "../Http.js"
import { operators, randomToken, sessionView } from "./helpers.js"

export const ConsoleSessionLive = HttpApiBuilder.group(TumaApi, "consoleSession", (handlers) =>
  Effect.gen(function*() {
    const portal = yield* PortalRequest
    const settings = yield* PortalConfig
    return handlers
      .handle("csrf", () =>
        anonymously((request) =>
          Effect.gen(function*() {
            const token = randomToken()
            const response = yield* okJson({ csrf_token: token })
            return HttpServerResponse.unsafeSetCookie(
              response,
              CONSOLE_CSRF_COOKIE,
              token,
              cookieOptions(portal.secure(request), "/console/api")
            )
          })
        ))
      .handle("signIn", ({ payload }) =>
        anonymously((request) =>
          Effect.gen(function*() {
            const outcome = yield* operators((a) =>
              a.signIn({
                ...payload,
                presentedSessionId: request.cookies[CONSOLE_SESSION_COOKIE],
                client: portal.client(request)
              })
            )
            if (outcome._tag === "EnrolmentRequired") {
              return yield* okJson({ enrolment: { secret: outcome.secret, uri: outcome.uri } })
            }
            const view = yield* sessionView(outcome)
            const response = yield* okJson({ ...view, recovery_codes: outcome.recoveryCodes ?? null })
            return HttpServerResponse.unsafeSetCookie(
              response,
              CONSOLE_SESSION_COOKIE,
              outcome.sessionId,
              cookieOptions(portal.secure(request), "/console", settings.sessionAbsoluteMs)
            )
          })
        ))
      .handle("me", () => asOperator(({ signedIn }) => sessionView(signedIn)))
      .handle("signOut", ({ request }) =>
        asOperator(({ signedIn }) =>
          Effect.gen(function*() {
            yield* operators((a) => a.signOut(signedIn.session.id_hash))
            const response = yield* okJson({ ok: true })
            return HttpServerResponse.unsafeSetCookie(
              response,
              CONSOLE_SESSION_COOKIE,
              "",
              cookieOptions(portal.secure(request), "/console", 0)
            )
          })
        ))
      .handle("regenerateRecoveryCodes", () =>
        asOperator(({ signedIn }) =>
          Effect.map(
            operators((a) => a.regenerateRecoveryCodes(signedIn.operator.id)),
            (codes) => ({ recovery_codes: codes })
          )
        ))
      .handle("getInvitation", ({ path }) => anonymously(() => operators((a) => a.invitation(path.token))))
      .handle("acceptInvitation", ({ payload }) => anonymously(() => operators((a) => a.acceptInvitation(payload))))
  }))

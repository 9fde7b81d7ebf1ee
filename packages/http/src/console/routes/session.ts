/** The console's routes of the console session: CSRF token, sign-in with TOTP, sign-out, enrolment, invitations. */
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { OperatorAccess } from "@tuma/core/operators/OperatorAccess"
import { Effect, Schema } from "effect"
import {
  CONSOLE_CSRF_COOKIE,
  CONSOLE_SESSION_COOKIE,
  cookieOptions,
  okJson,
  OptionalText,
  param,
  route,
  Text,
  withBody
} from "../Http.js"
import type { ConsoleRoutes } from "./context.js"
import { randomToken, sessionView } from "./helpers.js"

/** Registers the routes of the console session: CSRF token, sign-in with TOTP, sign-out, enrolment, invitations. */
export const sessionRoutes = ({ base, on, portal, settings }: ConsoleRoutes) =>
  Effect.gen(function*() {
    // --- session -----------------------------------------------------------------------------
    yield* on.get(
      `${base}/session/csrf`,
      route("anonymous", (ctx) =>
        Effect.gen(function*() {
          const token = randomToken()
          const response = yield* okJson({ csrf_token: token })
          return HttpServerResponse.unsafeSetCookie(
            response,
            CONSOLE_CSRF_COOKIE,
            token,
            cookieOptions(portal.secure(ctx.request), "/console/api")
          )
        }))
    )
    yield* on.post(
      `${base}/session`,
      route(
        "anonymous",
        withBody(Schema.Struct({ email: Text, password: Text, code: Text }), (ctx, body) =>
          Effect.gen(function*() {
            const access = yield* OperatorAccess
            const outcome = yield* access.signIn({
              ...body,
              presentedSessionId: ctx.request.cookies[CONSOLE_SESSION_COOKIE],
              client: portal.client(ctx.request)
            })
            if (outcome._tag === "EnrolmentRequired") {
              return yield* okJson({ enrolment: { secret: outcome.secret, uri: outcome.uri } })
            }
            const view = yield* sessionView(outcome)
            const response = yield* okJson({ ...view, recovery_codes: outcome.recoveryCodes ?? null })
            return HttpServerResponse.unsafeSetCookie(
              response,
              CONSOLE_SESSION_COOKIE,
              outcome.sessionId,
              cookieOptions(portal.secure(ctx.request), "/console", settings.sessionAbsoluteMs)
            )
          }))
      )
    )
    yield* on.get(`${base}/session`, route("signed-in", (ctx) => sessionView(ctx.signedIn!)))
    yield* on.del(
      `${base}/session`,
      route("signed-in", (ctx) =>
        Effect.gen(function*() {
          yield* Effect.flatMap(OperatorAccess, (a) => a.signOut(ctx.signedIn!.session.id_hash))
          const response = yield* okJson({ ok: true })
          return HttpServerResponse.unsafeSetCookie(
            response,
            CONSOLE_SESSION_COOKIE,
            "",
            cookieOptions(portal.secure(ctx.request), "/console", 0)
          )
        }))
    )
    yield* on.post(
      `${base}/session/recovery-codes`,
      route("signed-in", (ctx) =>
        Effect.flatMap(OperatorAccess, (a) =>
          a.regenerateRecoveryCodes(ctx.signedIn!.operator.id)).pipe(
            Effect.map((codes) => ({ recovery_codes: codes }))
          ))
    )
    yield* on.get(
      `${base}/invitations/:token`,
      route("anonymous", (ctx) =>
        Effect.flatMap(OperatorAccess, (a) => a.invitation(param(ctx, "token"))))
    )
    yield* on.post(
      `${base}/invitations/accept`,
      route(
        "anonymous",
        withBody(
          Schema.Struct({ token: Text, password: Text, name: OptionalText }),
          (_, body) => Effect.flatMap(OperatorAccess, (a) => a.acceptInvitation(body))
        )
      )
    )
  })

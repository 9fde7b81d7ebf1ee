/**
 * Handlers of the portal's `portalSession` (sign-in, sessions, invitations, password reset) and
 * `portalAccount` (balance, profile, team) groups, over core's `PortalAccess`, `Admin` and `Reads`.
 * The account is always the session's.
 */
import { RateLimiter } from "@effect/experimental"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import { Admin } from "@tuma/core"
import { Reads } from "@tuma/core"
import type { ClientInfo, SignedIn } from "@tuma/core/portal/PortalAccess"
import { PortalAccess, randomToken } from "@tuma/core/portal/PortalAccess"
import { Effect } from "effect"
import { TumaApi } from "../Api.js"
import type { DomainFailure } from "../shared/Errors.js"
import { CSRF_COOKIE, CurrentPortalUser, SESSION_COOKIE } from "./Api.js"
import type { PortalUserContext } from "./Api.js"
import { asPortalUser, PortalRequest, requestLinkBase } from "./Session.js"
import { done, doneAfter, invitationView, mapFailure, ok, okAfter, sessionView, userView, withUser } from "./Views.js"

export const PortalSessionLive = HttpApiBuilder.group(TumaApi, "portalSession", (handlers) =>
  Effect.gen(function*() {
    const access = yield* PortalAccess
    const portal = yield* PortalRequest
    const limiter = yield* RateLimiter.RateLimiter

    const signedInAnswer = (signedIn: SignedIn) =>
      Effect.zipRight(
        portal.setSessionCookie(signedIn),
        ok(sessionView(signedIn, access.expiresAt(signedIn.session)))
      )

    /** Signs in by `enter` (with the request's session cookie and client) and answers the session. */
    const signingIn = <E extends DomainFailure>(
      enter: (
        from: { readonly presentedSessionId: string | undefined; readonly client: ClientInfo }
      ) => Effect.Effect<SignedIn, E>
    ) =>
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const signedIn = yield* enter({
          presentedSessionId: request.cookies[SESSION_COOKIE],
          client: portal.client(request)
        }).pipe(mapFailure)
        return yield* signedInAnswer(signedIn)
      })

    /** Ends the signed-in user's session(s) by `end`, clears the cookie and answers `{ ok: true }`. */
    const signingOut = <E, R>(end: (user: PortalUserContext) => Effect.Effect<void, E, R>) =>
      withUser((user) => end(user).pipe(Effect.zipRight(portal.clearSessionCookie), Effect.zipRight(done)))

    return handlers
      .handle("csrf", () =>
        Effect.gen(function*() {
          const request = yield* HttpServerRequest.HttpServerRequest
          const id = request.cookies[SESSION_COOKIE]
          const found = id === undefined ? undefined : yield* access.authenticate(id)
          if (found !== undefined) return yield* ok({ csrf_token: found.session.csrf_token })
          const existing = request.cookies[CSRF_COOKIE]
          const token = existing !== undefined && /^[A-Za-z0-9_-]{43}$/.test(existing) ? existing : randomToken()
          yield* portal.setCsrfCookie(token)
          return yield* ok({ csrf_token: token })
        }))
      .handle("signIn", ({ payload }) =>
        Effect.gen(function*() {
          const request = yield* HttpServerRequest.HttpServerRequest
          const outcome = yield* access.signIn({
            email: payload.email,
            password: payload.password,
            code: payload.code,
            presentedSessionId: request.cookies[SESSION_COOKIE],
            client: portal.client(request)
          }).pipe(mapFailure)
          if (outcome._tag === "CodeRequired") return yield* ok({ two_factor: "code_required" as const })
          if (outcome._tag === "EnrolmentRequired") {
            return yield* ok({
              two_factor: "enrolment_required" as const,
              enrolment: { secret: outcome.secret, uri: outcome.uri }
            })
          }
          yield* portal.setSessionCookie(outcome)
          const view = sessionView(outcome, access.expiresAt(outcome.session))
          return yield* ok(
            outcome.recoveryCodes === undefined ? view : { ...view, recovery_codes: outcome.recoveryCodes }
          )
        }))
      .handle("me", () =>
        Effect.gen(function*() {
          const user = yield* CurrentPortalUser
          const request = yield* HttpServerRequest.HttpServerRequest
          const found = yield* access.authenticate(request.cookies[SESSION_COOKIE] ?? "")
          if (found === undefined) {
            return yield* Effect.die("portal: session vanished mid-request")
          }
          const account = yield* access.account(user.accountId)
          return yield* ok(sessionView({ ...found, account }, access.expiresAt(found.session)))
        }))
      .handle("signOut", () => signingOut((user) => access.signOut(user.sessionId)))
      .handle("signOutEverywhere", () => signingOut((user) => access.signOutEverywhere(user.userId)))
      .handle("getInvitation", ({ path }) =>
        Effect.gen(function*() {
          const { account, invitation } = yield* access.invitation(path.token).pipe(mapFailure)
          return yield* ok({
            email: invitation.email,
            account_name: account.name,
            role: invitation.role ?? "member" as const,
            expires_at: invitation.expires_at.toISOString()
          })
        }))
      .handle("acceptInvitation", ({ payload }) =>
        signingIn((from) =>
          access.acceptInvitation({ token: payload.token, password: payload.password, name: payload.name, ...from })
        ))
      .handle("requestPasswordReset", ({ payload }) =>
        Effect.gen(function*() {
          // at most 3 e-mails per address per 15 minutes; the answer is the same either way
          const allowed = yield* limiter.consume({
            algorithm: "fixed-window",
            window: "15 minutes",
            limit: 3,
            key: `pwreset:${payload.email.trim().toLowerCase()}`
          }).pipe(
            Effect.as(true),
            Effect.catchAll(() =>
              Effect.succeed(false)
            )
          )
          if (allowed) {
            yield* access.requestPasswordReset(payload.email, yield* requestLinkBase)
          }
          return yield* done
        }))
      .handle("completePasswordReset", ({ payload }) =>
        doneAfter(access.completePasswordReset(payload.token, payload.password)))
  }))

export const PortalAccountLive = HttpApiBuilder.group(TumaApi, "portalAccount", (handlers) =>
  Effect.gen(function*() {
    const access = yield* PortalAccess
    const admin = yield* Admin
    const reads = yield* Reads

    const ledger = (accountId: string, options: { country?: string | undefined; limit?: number | undefined }) =>
      admin.ledger(accountId, options).pipe(mapFailure)

    return handlers
      .handle("wallets", () =>
        withUser((user) =>
          okAfter(admin.listWallets(user.accountId), (ws) => ws.map(({ country_uid: _, ...w }) => w))
        ))
      .handle("ledger", ({ urlParams }) =>
        Effect.gen(function*() {
          const user = yield* CurrentPortalUser
          const limit = Math.min(Math.max(Math.floor(urlParams.limit ?? 100), 1), 1000)
          const rows = yield* ledger(user.accountId, {
            country: urlParams.country,
            limit: urlParams.kind === undefined ? limit : 1000
          })
          const kept = urlParams.kind === undefined ? rows : rows.filter((r) => r.kind === urlParams.kind)
          return yield* ok(kept.slice(0, limit))
        }))
      .handle("purchases", () =>
        Effect.gen(function*() {
          const user = yield* CurrentPortalUser
          const rows = yield* ledger(user.accountId, { limit: 1000 })
          return yield* ok(rows.filter((r) => r.kind === "purchase"))
        }))
      .handle("profile", () =>
        Effect.gen(function*() {
          const user = yield* CurrentPortalUser
          const members = yield* access.members(user.accountId)
          const me = members.find((m) => m.id === user.userId)
          if (me === undefined) return yield* Effect.die("portal: user vanished mid-request")
          return yield* ok({ user: userView(me), account: yield* reads.profile(user.accountId) })
        }))
      .handle("updateProfile", ({ payload }) =>
        withUser((user) =>
          okAfter(access.updateProfile(user.accountId, user.userId, payload), userView)
        ))
      .handle("changePassword", ({ payload }) =>
        withUser((user) =>
          doneAfter(access.changePassword({
            accountId: user.accountId,
            userId: user.userId,
            currentPassword: payload.current_password,
            newPassword: payload.new_password,
            keepSession: user.sessionId
          }))
        ))
      .handle("twoFactor", () =>
        withUser((user) =>
          Effect.gen(function*() {
            const me = (yield* access.members(user.accountId)).find((m) => m.id === user.userId)
            const account = yield* access.account(user.accountId)
            return yield* ok({
              enabled: me?.two_factor === true,
              required_by_account: account.require_two_factor,
              unused_recovery_codes: yield* access.unusedRecoveryCodes(user.userId)
            })
          })
        ))
      .handle("startTwoFactor", () =>
        withUser((user) =>
          okAfter(access.startTwoFactor(user.accountId, user.userId), (e) => e)
        ))
      .handle("confirmTwoFactor", ({ payload }) =>
        withUser((user) =>
          okAfter(
            access.confirmTwoFactor(user.accountId, user.userId, payload.code),
            (codes) => ({ recovery_codes: codes })
          )
        ))
      .handle("disableTwoFactor", ({ payload }) =>
        withUser((user) =>
          doneAfter(access.disableTwoFactor(user.accountId, user.userId, payload.password))
        ))
      .handle("regenerateRecoveryCodes", () =>
        withUser((user) =>
          okAfter(access.regenerateRecoveryCodes(user.accountId, user.userId), (codes) => ({ recovery_codes: codes }))
        ))
      .handle("requireTwoFactor", ({ payload }) =>
        withUser((user) =>
          doneAfter(access.setRequireTwoFactor(user.accountId, user.userId, payload.require_two_factor))
        ))
      .handle("team", () =>
        Effect.gen(function*() {
          const user = yield* CurrentPortalUser
          const members = yield* access.members(user.accountId)
          const invitations = yield* access.pendingInvitations(user.accountId)
          const account = yield* access.account(user.accountId)
          return yield* ok({
            members: members.map(userView),
            require_two_factor: account.require_two_factor,
            invitations: invitations.map(invitationView)
          })
        }))
      .handle("invite", ({ payload }) =>
        Effect.gen(function*() {
          const user = yield* CurrentPortalUser
          const { invitation, link, mail } = yield* access.invite({
            accountId: user.accountId,
            email: payload.email,
            role: payload.role,
            invitedBy: user.userId,
            linkBase: yield* requestLinkBase
          }).pipe(asPortalUser, mapFailure)
          return yield* ok({ ...invitationView(invitation), mail, link: mail === "sent" ? null : link })
        }))
      .handle("revokeInvitation", ({ path }) =>
        withUser((user) =>
          doneAfter(asPortalUser(access.revokeInvitation(user.accountId, path.invitation_uid)))
        ))
      .handle("changeRole", ({ path, payload }) =>
        withUser((user) =>
          okAfter(access.changeRole(user.accountId, path.user_uid, payload.role), userView)
        ))
      .handle("removeMember", ({ path }) =>
        withUser((user) =>
          doneAfter(access.removeMember(user.accountId, path.user_uid))
        ))
  }))

/**
 * Contract suite of the portal's access rules (core `PortalAccess` over `SqlPortalStore`), driven
 * by Effect's `TestClock`: idle and absolute session expiry, the idle refresh, lockout and its end,
 * invitation and reset expiry and single use, the last owner. PGlite always, PostgreSQL when
 * configured (core has no memory adapter of the portal's store). (The HTTP behaviour — cookies,
 * CSRF, e-mails over SMTP — is tested in packages/http/test/portal.)
 */
import { expect } from "@effect/vitest"
import { Audit } from "@tuma/core/audit/Audit"
import { PortalAccess } from "@tuma/core/portal/PortalAccess"
import * as PortalAccessModule from "@tuma/core/portal/PortalAccess"
import { defaultPortalSettings, PortalConfig } from "@tuma/core/portal/PortalConfig"
import { Mailer } from "@tuma/core/ports/Notifiers"
import type { MailMessage } from "@tuma/core/ports/Notifiers"
import * as Totp from "@tuma/domain/totp"
import { Effect, Either, Layer, TestClock } from "effect"
import * as SqlPortalStore from "../src/SqlPortalStore.js"
import type { SqlLayerFor } from "./harness.js"
import { forEachDriver } from "./harness.js"
import type { OperatorStack } from "./operatorFixtures.js"
import { newAccount, operatorStack, unique } from "./operatorFixtures.js"

const T0 = Date.parse("2026-05-01T08:00:00Z")
const MIN = 60_000
const PASSWORD = "correct horse battery"
const client = { ip: "192.0.2.10", userAgent: "test" }

const outbox: Array<MailMessage> = []
const access = PortalAccessModule.layer.pipe(
  Layer.provide(
    Layer.succeed(Mailer, Mailer.of({ send: (m) => Effect.sync(() => (outbox.push(m), "sent" as const)) }))
  ),
  Layer.provide(Layer.succeed(PortalConfig, { ...defaultPortalSettings, lockoutThreshold: 3 })),
  Layer.provide(Audit.layer)
)
const stack: SqlLayerFor<PortalAccess | OperatorStack> = (db, driver) =>
  access.pipe(
    Layer.provide(SqlPortalStore.layer),
    Layer.provideMerge(Layer.merge(operatorStack.sql(db, driver), db))
  )

const owner = Effect.gen(function*() {
  const account = yield* newAccount()
  const access = yield* PortalAccess
  const email = `${unique("o")}@example.com`
  const user = yield* access.ensureUser({ accountId: account.uid, email, password: PASSWORD, role: "owner" })
  return { account, email, user }
})

/** A password-only sign-in (these users have no second factor). */
const signIn = (input: Parameters<PortalAccess["Type"]["signIn"]>[0]) =>
  Effect.flatMap(
    PortalAccess,
    (a) =>
      Effect.flatMap(a.signIn(input), (r) => r._tag === "SignedIn" ? Effect.succeed(r) : Effect.die(`asked ${r._tag}`))
  )

/** The TOTP code of a secret at the TestClock's time. */
const codeOf = (secret: string) =>
  Effect.map(TestClock.currentTimeMillis, (ms) => Totp.totpFor(secret, "", "").generate({ timestamp: ms }))

const tokenIn = (to: string) => {
  const m = [...outbox].reverse().find((x) => x.to === to)!
  return /token=([A-Za-z0-9_-]+)/.exec(m.text)![1]
}

forEachDriver(stack, (it) => {
  it.effect("a session ends 30 minutes after its last use; use refreshes it", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const access = yield* PortalAccess
      const { email } = yield* owner
      const s = yield* signIn({ email, password: PASSWORD, presentedSessionId: undefined, client })
      yield* TestClock.adjust(29 * MIN)
      expect(yield* access.authenticate(s.sessionId)).toBeDefined()
      yield* TestClock.adjust(29 * MIN) // 58 min after sign-in, 29 after the last use
      expect(yield* access.authenticate(s.sessionId)).toBeDefined()
      yield* TestClock.adjust(30 * MIN)
      expect(yield* access.authenticate(s.sessionId)).toBeUndefined()
    }))

  it.effect("a session ends 12 hours after sign-in however much it is used", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const access = yield* PortalAccess
      const { email } = yield* owner
      const s = yield* signIn({ email, password: PASSWORD, presentedSessionId: undefined, client })
      for (let i = 0; i < 35; i++) {
        yield* TestClock.adjust(20 * MIN)
        expect(yield* access.authenticate(s.sessionId)).toBeDefined()
      }
      yield* TestClock.adjust(20 * MIN) // 12 h
      expect(yield* access.authenticate(s.sessionId)).toBeUndefined()
    }))

  it.effect("sign-in ends the presented session and makes a new id", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const access = yield* PortalAccess
      const { email } = yield* owner
      const first = yield* signIn({ email, password: PASSWORD, presentedSessionId: undefined, client })
      const second = yield* signIn({ email, password: PASSWORD, presentedSessionId: first.sessionId, client })
      expect(second.sessionId).not.toBe(first.sessionId)
      expect(yield* access.authenticate(first.sessionId)).toBeUndefined()
      expect(yield* access.authenticate(second.sessionId)).toBeDefined()
    }))

  it.effect("3 failures lock the e-mail for 15 minutes (the right password too), then it opens", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const access = yield* PortalAccess
      const { email } = yield* owner
      const attempt = (password: string) =>
        Effect.either(access.signIn({ email, password, presentedSessionId: undefined, client }))
      const tags = []
      for (let i = 0; i < 3; i++) {
        const r = yield* attempt("wrong password")
        tags.push(Either.isLeft(r) ? r.left._tag : "ok")
      }
      expect(tags).toEqual(["InvalidCredentials", "InvalidCredentials", "LoginLocked"])
      const locked = yield* attempt(PASSWORD)
      expect(Either.isLeft(locked) && locked.left._tag).toBe("LoginLocked")
      expect(Either.isLeft(locked) && (locked.left as any).retry_after_seconds).toBe(900)
      yield* TestClock.adjust(15 * MIN)
      expect(Either.isRight(yield* attempt(PASSWORD))).toBe(true)
    }))

  it.effect(
    "50 failures from one client address lock that address for every e-mail, not other addresses",
    () =>
      Effect.gen(function*() {
        yield* TestClock.setTime(T0)
        const access = yield* PortalAccess
        const { email } = yield* owner
        const sprayer = { ip: "198.51.100.7", userAgent: "spray" }
        for (let i = 0; i < defaultPortalSettings.addressLockoutThreshold; i++) {
          const r = yield* Effect.either(access.signIn({
            email: `${unique("guess")}@example.com`,
            password: "wrong password",
            presentedSessionId: undefined,
            client: sprayer
          }))
          expect(Either.isLeft(r) && r.left._tag).toBe("InvalidCredentials")
        }
        // the right password of an untouched e-mail, from the locked address: refused
        const fromSprayer = yield* Effect.either(
          access.signIn({ email, password: PASSWORD, presentedSessionId: undefined, client: sprayer })
        )
        expect(Either.isLeft(fromSprayer) && fromSprayer.left._tag).toBe("LoginLocked")
        // the same user from another address signs in
        const elsewhere = yield* Effect.either(
          access.signIn({
            email,
            password: PASSWORD,
            presentedSessionId: undefined,
            client: { ip: "198.51.100.8", userAgent: "t" }
          })
        )
        expect(Either.isRight(elsewhere)).toBe(true)
      }),
    180_000
  ) // 50 scrypt checks: a minute on a busy 2-core machine

  it.effect("failures spread beyond the window do not lock", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const access = yield* PortalAccess
      const { email } = yield* owner
      for (let i = 0; i < 4; i++) {
        const r = yield* Effect.either(
          access.signIn({ email, password: "wrong password", presentedSessionId: undefined, client })
        )
        expect(Either.isLeft(r) && r.left._tag).toBe("InvalidCredentials")
        yield* TestClock.adjust(16 * MIN)
      }
    }))

  it.effect("an invitation works once and not after 7 days; a reset link not after an hour", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const access = yield* PortalAccess
      const { account, email } = yield* owner
      const late = `${unique("late")}@example.com`
      yield* access.invite({
        accountId: account.uid,
        email: late,
        role: "member",
        invitedBy: null,
        linkBase: "http://x"
      })
      yield* TestClock.adjust(7 * 24 * 60 * MIN)
      const expired = yield* Effect.either(access.invitation(tokenIn(late)))
      expect(Either.isLeft(expired) && expired.left._tag).toBe("ResourceNotFound")

      const ok = `${unique("ok")}@example.com`
      yield* access.invite({ accountId: account.uid, email: ok, role: "member", invitedBy: null, linkBase: "http://x" })
      const token = tokenIn(ok)
      const accept = () =>
        Effect.either(
          access.acceptInvitation({ token, password: PASSWORD, name: "N", presentedSessionId: undefined, client })
        )
      expect(Either.isRight(yield* accept())).toBe(true)
      const again = yield* accept()
      expect(Either.isLeft(again) && again.left._tag).toBe("ResourceNotFound")

      yield* access.requestPasswordReset(email, "http://x")
      const reset = tokenIn(email)
      yield* TestClock.adjust(61 * MIN)
      const tooLate = yield* Effect.either(access.completePasswordReset(reset, "another long passphrase"))
      expect(Either.isLeft(tooLate) && tooLate.left._tag).toBe("ResourceNotFound")
    }))

  it.effect("an account keeps at least one owner", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const access = yield* PortalAccess
      const { account, user } = yield* owner
      const demote = yield* Effect.either(access.changeRole(account.uid, user.id, "member"))
      expect(Either.isLeft(demote) && demote.left._tag).toBe("ResourceConflict")
      const remove = yield* Effect.either(access.removeMember(account.uid, user.id))
      expect(Either.isLeft(remove) && remove.left._tag).toBe("ResourceConflict")
      const other = yield* newAccount()
      const foreign = yield* Effect.either(access.changeRole(other.uid, user.id, "member"))
      expect(Either.isLeft(foreign) && foreign.left._tag).toBe("ResourceNotFound")
    }))

  it.effect("two-factor: enrolment by a code, sign-in asks for it, a step once, a recovery code once", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const access = yield* PortalAccess
      const { account, email, user } = yield* owner
      const enrol = yield* access.startTwoFactor(account.uid, user.id)
      expect(enrol.uri).toContain("otpauth://totp/")
      // the same pending secret until confirmed; a wrong code is refused
      expect((yield* access.startTwoFactor(account.uid, user.id)).secret).toBe(enrol.secret)
      const wrong = yield* Effect.either(access.confirmTwoFactor(account.uid, user.id, "000000"))
      expect(Either.isLeft(wrong) && wrong.left._tag).toBe("ValidationFailed")
      const codes = yield* access.confirmTwoFactor(account.uid, user.id, yield* codeOf(enrol.secret))
      expect(codes).toHaveLength(10)
      // the password alone asks for the code
      const input = { email, password: PASSWORD, presentedSessionId: undefined, client }
      expect((yield* access.signIn(input))._tag).toBe("CodeRequired")
      yield* TestClock.adjust(MIN)
      const code = yield* codeOf(enrol.secret)
      expect((yield* access.signIn({ ...input, code }))._tag).toBe("SignedIn")
      // the same step again is refused (no replay)
      const replay = yield* Effect.either(access.signIn({ ...input, code }))
      expect(Either.isLeft(replay) && replay.left._tag).toBe("InvalidCredentials")
      // a recovery code signs in once
      expect((yield* access.signIn({ ...input, code: codes[0].toUpperCase() }))._tag).toBe("SignedIn")
      const spent = yield* Effect.either(access.signIn({ ...input, code: codes[0] }))
      expect(Either.isLeft(spent) && spent.left._tag).toBe("InvalidCredentials")
      // turned off with the password; then the password alone signs in
      const badPassword = yield* Effect.either(access.disableTwoFactor(account.uid, user.id, "nope"))
      expect(Either.isLeft(badPassword) && badPassword.left._tag).toBe("ValidationFailed")
      yield* access.disableTwoFactor(account.uid, user.id, PASSWORD)
      expect((yield* access.signIn(input))._tag).toBe("SignedIn")
    }))

  it.effect("two-factor required by the owner: a user without it enrols at the next sign-in", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(T0)
      const access = yield* PortalAccess
      const { account, user } = yield* owner
      // the owner must have it first
      const early = yield* Effect.either(access.setRequireTwoFactor(account.uid, user.id, true))
      expect(Either.isLeft(early) && early.left._tag).toBe("ValidationFailed")
      const own = yield* access.startTwoFactor(account.uid, user.id)
      yield* access.confirmTwoFactor(account.uid, user.id, yield* codeOf(own.secret))
      yield* access.setRequireTwoFactor(account.uid, user.id, true)
      const memberEmail = `${unique("m")}@example.com`
      const member = yield* access.ensureUser({
        accountId: account.uid,
        email: memberEmail,
        password: PASSWORD,
        role: "member"
      })
      const input = { email: memberEmail, password: PASSWORD, presentedSessionId: undefined, client }
      const step = yield* access.signIn(input)
      if (step._tag !== "EnrolmentRequired") return expect.unreachable(step._tag)
      const wrong = yield* Effect.either(access.signIn({ ...input, code: "123456" }))
      expect(Either.isLeft(wrong) && wrong.left._tag).toBe("InvalidCredentials")
      const done = yield* access.signIn({ ...input, code: yield* codeOf(step.secret) })
      if (done._tag !== "SignedIn") return expect.unreachable(done._tag)
      expect(done.recoveryCodes).toHaveLength(10)
      expect(done.user.two_factor).toBe(true)
      // while required, it cannot be turned off
      const off = yield* Effect.either(access.disableTwoFactor(account.uid, member.id, PASSWORD))
      expect(Either.isLeft(off) && off.left._tag).toBe("ResourceConflict")
    }))
})

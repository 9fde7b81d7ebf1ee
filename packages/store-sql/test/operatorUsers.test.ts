/**
 * Contract suite of the console's operator users (core `OperatorAccess` over `OperatorUserStore`):
 * invitations, TOTP enrolment of admins, codes accepted once, recovery codes, lockout, disabled
 * operators, session expiry. PGlite and PostgreSQL when configured (core has no memory adapter of
 * the operator users' store); driven by Effect's `TestClock` (TOTP codes are computed for the test clock's time).
 */
import { expect } from "@effect/vitest"
import { Ids } from "@tuma/core"
import { Audit } from "@tuma/core/audit/Audit"
import * as OperatorAccessModule from "@tuma/core/operators/OperatorAccess"
import { OperatorAccess, totpFor } from "@tuma/core/operators/OperatorAccess"
import { defaultPortalSettings, PortalConfig } from "@tuma/core/portal/PortalConfig"
import type { AuditStore } from "@tuma/core/ports/AuditStore"
import type { MailMessage } from "@tuma/core/ports/Notifiers"
import { Mailer } from "@tuma/core/ports/Notifiers"
import type { OperatorUserStore } from "@tuma/core/ports/OperatorUserStore"
import { Clock, Effect, Either, Layer, TestClock } from "effect"
import * as SqlAuditStore from "../src/SqlAuditStore.js"
import * as SqlOperatorUserStore from "../src/SqlOperatorUserStore.js"
import { forEachDriver } from "./harness.js"

const T0 = Date.parse("2026-05-01T08:00:00Z")
const MIN = 60_000
const PASSWORD = "correct horse battery"
const client = { ip: "192.0.2.20", userAgent: "test" }
const outbox: Array<MailMessage> = []
let n = 0
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${(n++).toString(36)}@example.com`

const services = (store: Layer.Layer<OperatorUserStore>, auditStore: Layer.Layer<AuditStore>) =>
  OperatorAccessModule.layer.pipe(
    Layer.provide(store),
    Layer.provideMerge(Audit.layer.pipe(Layer.provide(auditStore))),
    Layer.provide(Ids.layer),
    Layer.provide(
      Layer.succeed(Mailer, Mailer.of({ send: (m) => Effect.sync(() => (outbox.push(m), "sent" as const)) }))
    ),
    Layer.provide(Layer.succeed(PortalConfig, { ...defaultPortalSettings, lockoutThreshold: 3 }))
  )

const tokenIn = (to: string) => {
  const m = [...outbox].reverse().find((x) => x.to === to)!
  return /token=([A-Za-z0-9_%-]+)/.exec(m.text)![1]
}

const codeAt = (secret: string, email: string) =>
  Effect.map(Clock.currentTimeMillis, (timestamp) => totpFor(secret, email).generate({ timestamp }))

/** An operator invited and with a password chosen. */
const invited = (role: string) =>
  Effect.gen(function*() {
    const access = yield* OperatorAccess
    const email = unique(role)
    yield* access.create({ email, role, linkBase: "https://console.example" })
    yield* access.acceptInvitation({ token: decodeURIComponent(tokenIn(email)), password: PASSWORD })
    return email
  })

const signIn = (email: string, code = "", password = PASSWORD) =>
  Effect.flatMap(
    OperatorAccess,
    (access) => access.signIn({ email, password, code, presentedSessionId: undefined, client })
  )

/** An admin enrolled in TOTP: its e-mail, secret and recovery codes. */
const enrolledAdmin = Effect.gen(function*() {
  const email = yield* invited("admin")
  const first = yield* signIn(email)
  if (first._tag !== "EnrolmentRequired") throw new Error("expected enrolment")
  const signedIn = yield* signIn(email, yield* codeAt(first.secret, email))
  if (signedIn._tag !== "SignedIn") throw new Error("expected a session")
  return { email, secret: first.secret, recoveryCodes: signedIn.recoveryCodes! }
})

forEachDriver(
  (db) => services(SqlOperatorUserStore.layer.pipe(Layer.provide(db)), SqlAuditStore.layer.pipe(Layer.provide(db))),
  (it) => {
    it.effect("an operator is invited by e-mail; the link sets the password once", () =>
      Effect.gen(function*() {
        yield* TestClock.setTime(T0)
        const access = yield* OperatorAccess
        const email = unique("rev")
        const { operator } = yield* access.create({ email, role: "reviewer", linkBase: "https://console.example" })
        expect(operator.status).toBe("invited")
        const mail = [...outbox].reverse().find((m) => m.to === email)!
        expect(mail.text).toContain("https://console.example/console/accept-invitation?token=")
        const token = decodeURIComponent(tokenIn(email))
        expect((yield* access.invitation(token)).email).toBe(email)
        // cannot sign in before choosing a password
        expect(Either.isLeft(yield* Effect.either(signIn(email, "", "")))).toBe(true)
        const accepted = yield* access.acceptInvitation({ token, password: PASSWORD })
        expect(accepted.status).toBe("active")
        const again = yield* Effect.either(access.acceptInvitation({ token, password: "another password 1" }))
        expect(Either.isLeft(again)).toBe(true)
        // a reviewer needs no second factor
        const s = yield* signIn(email)
        expect(s._tag).toBe("SignedIn")
        // the e-mail is unique; a bad role is refused and creates nothing
        const dup = yield* Effect.either(access.create({ email: email.toUpperCase(), role: "support", linkBase: "x" }))
        expect(Either.isLeft(dup) && dup.left._tag).toBe("ResourceConflict")
        const bad = yield* Effect.either(access.create({ email: unique("x"), role: "root", linkBase: "x" }))
        expect(Either.isLeft(bad) && bad.left._tag).toBe("ValidationFailed")
      }))

    it.effect("an admin enrols TOTP at the first sign-in; then a code is required and used once", () =>
      Effect.gen(function*() {
        yield* TestClock.setTime(T0)
        const access = yield* OperatorAccess
        const email = yield* invited("admin")
        const first = yield* signIn(email)
        expect(first._tag).toBe("EnrolmentRequired")
        if (first._tag !== "EnrolmentRequired") return
        expect(first.uri).toMatch(/^otpauth:\/\/totp\/.*secret=/)
        // the same pending secret until it is confirmed
        const again = yield* signIn(email)
        expect(again._tag === "EnrolmentRequired" && again.secret).toBe(first.secret)
        const wrong = yield* Effect.either(signIn(email, "000000"))
        expect(Either.isLeft(wrong)).toBe(true)
        const code = yield* codeAt(first.secret, email)
        const signedIn = yield* signIn(email, code)
        expect(signedIn._tag).toBe("SignedIn")
        if (signedIn._tag !== "SignedIn") return
        expect(signedIn.recoveryCodes).toHaveLength(10)
        expect((yield* access.get(signedIn.operator.id)).totp_enrolled).toBe(true)
        // the code is required now
        const noCode = yield* Effect.either(signIn(email))
        expect(Either.isLeft(noCode) && noCode.left._tag).toBe("InvalidCredentials")
        // the same code (same 30 s step) is not accepted twice
        const replay = yield* Effect.either(signIn(email, code))
        expect(Either.isLeft(replay)).toBe(true)
        yield* TestClock.adjust(30_000)
        const next = yield* signIn(email, yield* codeAt(first.secret, email))
        expect(next._tag === "SignedIn" && next.recoveryCodes).toBeUndefined()
        expect((yield* access.authenticate(next._tag === "SignedIn" ? next.sessionId : ""))?.operator.email).toBe(email)
      }))

    it.effect("a recovery code signs in once", () =>
      Effect.gen(function*() {
        yield* TestClock.setTime(T0 + 10 * MIN)
        const access = yield* OperatorAccess
        const { email, recoveryCodes } = yield* enrolledAdmin
        const used = yield* signIn(email, recoveryCodes[3].toUpperCase())
        expect(used._tag).toBe("SignedIn")
        const again = yield* Effect.either(signIn(email, recoveryCodes[3]))
        expect(Either.isLeft(again)).toBe(true)
        const id = used._tag === "SignedIn" ? used.operator.id : ""
        expect(yield* access.unusedRecoveryCodes(id)).toBe(9)
        const fresh = yield* access.regenerateRecoveryCodes(id)
        expect(yield* access.unusedRecoveryCodes(id)).toBe(10)
        expect(Either.isLeft(yield* Effect.either(signIn(email, recoveryCodes[4])))).toBe(true)
        expect((yield* signIn(email, fresh[0]))._tag).toBe("SignedIn")
      }))

    it.effect("wrong codes lock the e-mail after 3 failures; the lock ends", () =>
      Effect.gen(function*() {
        yield* TestClock.setTime(T0 + 60 * MIN)
        const { email, secret } = yield* enrolledAdmin
        yield* TestClock.adjust(30_000)
        for (let i = 0; i < 2; i++) {
          const r = yield* Effect.either(signIn(email, "123456"))
          expect(Either.isLeft(r) && r.left._tag).toBe("InvalidCredentials")
        }
        const third = yield* Effect.either(signIn(email, "123456"))
        expect(Either.isLeft(third) && third.left._tag).toBe("LoginLocked")
        // even the right code is refused while locked
        const locked = yield* Effect.either(signIn(email, yield* codeAt(secret, email)))
        expect(Either.isLeft(locked) && locked.left._tag).toBe("LoginLocked")
        yield* TestClock.adjust(16 * MIN)
        expect((yield* signIn(email, yield* codeAt(secret, email)))._tag).toBe("SignedIn")
      }))

    it.effect("a disabled operator's sessions end and it cannot sign in; sessions expire when idle", () =>
      Effect.gen(function*() {
        yield* TestClock.setTime(T0 + 120 * MIN)
        const access = yield* OperatorAccess
        const email = yield* invited("support")
        const s = yield* signIn(email)
        if (s._tag !== "SignedIn") throw new Error("expected a session")
        yield* TestClock.adjust(29 * MIN)
        expect(yield* access.authenticate(s.sessionId)).toBeDefined()
        yield* TestClock.adjust(29 * MIN)
        expect(yield* access.authenticate(s.sessionId)).toBeDefined()
        yield* TestClock.adjust(31 * MIN)
        expect(yield* access.authenticate(s.sessionId)).toBeUndefined()
        const s2 = yield* signIn(email)
        if (s2._tag !== "SignedIn") throw new Error("expected a session")
        yield* access.setDisabled(s2.operator.id, true)
        expect(yield* access.authenticate(s2.sessionId)).toBeUndefined()
        expect(Either.isLeft(yield* Effect.either(signIn(email)))).toBe(true)
        yield* access.setDisabled(s2.operator.id, false)
        const role = yield* access.setRole(s2.operator.id, "reviewer")
        expect(role.role).toBe("reviewer")
        // each change is in the audit log, with its target and before/after
        const audit = yield* Audit
        const log = yield* audit.search({ target: `operator:${s2.operator.id}` })
        expect(log.map((e) => e.action)).toEqual([
          "operator.role",
          "operator.enable",
          "operator.disable",
          "operator.create"
        ])
        expect((log[0].before as any).role).toBe("support")
        expect((log[0].after as any).role).toBe("reviewer")
      }))
  }
)

/**
 * SMPP credentials (issue 28): the use cases behind `/admin/v1/smpp-accounts` and the bind check of the
 * SMPP listener. Domain decides what valid credentials are (`@tuma/domain` smpp.ts); this module
 * orchestrates: a new password (shown once, scrypt-hashed at rest like portal passwords), the store, the
 * lockout after repeated failed binds.
 *
 * Every change (create, disable, enable, rotate the password, delete) is recorded in the audit log
 * (`smpp_account.<verb>`, target `smpp_account:<uid>`) in the change's transaction, the password never.
 *
 * Lockout (decisions "SMPP server"): `LOCKOUT.failures` failed binds of one system_id within
 * `LOCKOUT.windowMillis` lock it for `LOCKOUT.lockMillis`; while locked every bind is refused, the right
 * password too. Counted per process (a bind reaches one process).
 */
import type { SmppAccountInput } from "@tuma/domain"
import { newSmppPassword, ResourceConflict, smppAccountSettings, smppAddressAllowed } from "@tuma/domain"
import type { ResourceNotFound, ValidationFailed } from "@tuma/domain"
import { validationFailed } from "@tuma/domain/validation"
import { Clock, Context, Effect, Layer, Option, Schema } from "effect"
import { notFound, UUID } from "../admin/context.js"
import { auditedChange, makeAudit } from "../audit/Audit.js"
import { DUMMY_HASH, hashPassword, verifyPassword } from "../portal/Passwords.js"
import { AuditStore } from "../ports/AuditStore.js"
import { Ids } from "../ports/Ids.js"
import type { SmppAccountRow } from "../ports/SmppStore.js"
import { SmppStore } from "../ports/SmppStore.js"

/** SMPP credentials as the admin API answers them (never the password or its hash). */
export const SmppAccountView = Schema.Struct({
  uid: Schema.String,
  account_uid: Schema.String,
  system_id: Schema.String,
  mode: Schema.Literal("live", "sandbox"),
  throughput: Schema.Struct({ rate: Schema.Number, burst: Schema.Number }),
  max_binds: Schema.Number,
  allowed_ips: Schema.Array(Schema.String),
  status: Schema.Literal("active", "disabled"),
  created_at: Schema.String,
  updated_at: Schema.String
}).annotations({ identifier: "SmppAccount" })
/** SMPP credentials as answered. */
export type SmppAccountView = typeof SmppAccountView.Type

/** Credentials with their password: answered once, at creation and rotation. */
export const SmppAccountWithPassword = Schema.Struct({ ...SmppAccountView.fields, password: Schema.String })
  .annotations({ identifier: "SmppAccountWithPassword" })
/** Credentials with their password. */
export type SmppAccountWithPassword = typeof SmppAccountWithPassword.Type

/** The admin API's view of stored credentials. */
export const smppAccountView = (row: SmppAccountRow): SmppAccountView => ({
  uid: row.id,
  account_uid: row.account_id,
  system_id: row.system_id,
  mode: row.mode,
  throughput: { rate: row.throughput_rate, burst: row.throughput_burst },
  max_binds: row.max_binds,
  allowed_ips: row.allowed_ips,
  status: row.disabled_at === null ? "active" : "disabled",
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString()
})

/** Failed binds that lock a system_id, the window they are counted in, and how long it stays locked. */
export const LOCKOUT = { failures: 5, windowMillis: 5 * 60_000, lockMillis: 5 * 60_000 } as const

/** Why a bind is refused (the listener answers ESME_RBINDFAIL for each; the reason is logged and counted). */
export type BindRefusal = "unknown_system_id" | "wrong_password" | "disabled" | "address_not_allowed" | "locked"

/** The answer to a bind's credentials. */
export type BindCheck =
  | { readonly _tag: "Bound"; readonly account: SmppAccountRow }
  | { readonly _tag: "Refused"; readonly reason: BindRefusal }

/** The new credentials' input: the account and `SmppAccountInput`. */
export interface CreateSmppAccount extends SmppAccountInput {
  readonly account_uid: string
}

/** The SMPP credential use cases. */
export class SmppAccounts extends Context.Tag("@tuma/core/SmppAccounts")<SmppAccounts, {
  readonly create: (
    input: CreateSmppAccount
  ) => Effect.Effect<SmppAccountWithPassword, ValidationFailed | ResourceConflict | ResourceNotFound>
  readonly list: (accountUid: string | undefined) => Effect.Effect<ReadonlyArray<SmppAccountView>>
  readonly get: (uid: string) => Effect.Effect<SmppAccountView, ResourceNotFound>
  readonly setDisabled: (uid: string, disabled: boolean) => Effect.Effect<SmppAccountView, ResourceNotFound>
  readonly rotatePassword: (uid: string) => Effect.Effect<SmppAccountWithPassword, ResourceNotFound>
  readonly remove: (uid: string) => Effect.Effect<void, ResourceNotFound>
  /** A bind's credentials from `address`: the stored credentials, or why not. */
  readonly authenticate: (systemId: string, password: string, address: string | undefined) => Effect.Effect<BindCheck>
}>() {
  /** Over an `SmppStore` and `Ids`. */
  static readonly layer = Layer.effect(
    SmppAccounts,
    Effect.gen(function*() {
      const store = yield* SmppStore
      const ids = yield* Ids
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))
      const find = (uid: string) =>
        (UUID.test(uid) ? store.get(uid) : Effect.succeedNone).pipe(
          Effect.flatMap(Option.match({
            onNone: () => Effect.fail(notFound("smpp_account", uid)),
            onSome: Effect.succeed
          }))
        )
      // every change recorded in the audit log with its entry, when an `AuditStore` is present (the server
      // and the CLI provide one; a fixture without one records nothing)
      const auditStore = yield* Effect.serviceOption(AuditStore)
      const change = Option.match(auditStore, {
        onNone: () =>
        <A, E>(
          _action: string,
          _target: string,
          _before: Effect.Effect<unknown, unknown>,
          run: Effect.Effect<A, E>,
          _after?: (value: A) => unknown
        ): Effect.Effect<A, E> => run,
        onSome: (audit) => auditedChange(makeAudit(audit).audited)
      })
      const nothing = Effect.succeed(null)
      const viewOf = (uid: string) => Effect.map(find(uid), smppAccountView)
      const failures = new Map<string, { count: number; first: number; lockedUntil: number }>()
      const fail = (systemId: string, at: number, reason: BindRefusal): BindCheck => {
        const f = failures.get(systemId)
        const fresh = f === undefined || at - f.first > LOCKOUT.windowMillis
        const next = fresh ? { count: 1, first: at, lockedUntil: 0 } : { ...f, count: f.count + 1 }
        if (next.count >= LOCKOUT.failures) next.lockedUntil = at + LOCKOUT.lockMillis
        failures.set(systemId, next)
        return { _tag: "Refused", reason }
      }
      return SmppAccounts.of({
        create: (input) =>
          Effect.gen(function*() {
            const settings = smppAccountSettings(input)
            if ("problems" in settings) return yield* validationFailed(settings.problems)
            if (!UUID.test(input.account_uid) || !(yield* store.accountExists(input.account_uid))) {
              return yield* notFound("account", input.account_uid)
            }
            const password = newSmppPassword()
            // hashed before the audited transaction (scrypt takes a while; no connection held meanwhile)
            const passwordHash = yield* hashPassword(password)
            const at = yield* now
            const row: SmppAccountRow = {
              id: yield* ids.uuidV7,
              account_id: input.account_uid,
              system_id: settings.ok.system_id,
              password_hash: passwordHash,
              mode: settings.ok.mode,
              throughput_rate: settings.ok.rate,
              throughput_burst: settings.ok.burst,
              max_binds: settings.ok.max_binds,
              allowed_ips: settings.ok.allowed_ips,
              disabled_at: null,
              created_at: at,
              updated_at: at
            }
            return yield* change(
              "smpp_account.create",
              `smpp_account:${row.id}`,
              nothing,
              Effect.gen(function*() {
                if (!(yield* store.insert(row))) {
                  return yield* new ResourceConflict({
                    message: `The system_id ${row.system_id} is already taken.`,
                    resource: "smpp_account"
                  })
                }
                return { ...smppAccountView(row), password }
              })
            )
          }),
        list: (accountUid) =>
          accountUid !== undefined && !UUID.test(accountUid)
            ? Effect.succeed([])
            : Effect.map(store.list(accountUid), (rows) => rows.map(smppAccountView)),
        get: (uid) => Effect.map(find(uid), smppAccountView),
        setDisabled: (uid, disabled) =>
          Effect.flatMap(now, (at) =>
            change(
              disabled ? "smpp_account.disable" : "smpp_account.enable",
              `smpp_account:${uid}`,
              viewOf(uid),
              Effect.gen(function*() {
                yield* find(uid)
                const row = yield* store.update(uid, { disabled_at: disabled ? at : null }, at)
                return smppAccountView(yield* Option.match(row, { onNone: () => find(uid), onSome: Effect.succeed }))
              })
            )),
        rotatePassword: (uid) =>
          Effect.gen(function*() {
            yield* find(uid)
            const password = newSmppPassword()
            const passwordHash = yield* hashPassword(password)
            const at = yield* now
            return yield* change(
              "smpp_account.rotate_password",
              `smpp_account:${uid}`,
              nothing,
              Effect.gen(function*() {
                const row = yield* store.update(uid, { password_hash: passwordHash }, at)
                const stored = yield* Option.match(row, { onNone: () => find(uid), onSome: Effect.succeed })
                return { ...smppAccountView(stored), password }
              }),
              // the new password is never recorded (it shows as "***")
              (v) => ({ password: v.password })
            )
          }),
        remove: (uid) =>
          change(
            "smpp_account.delete",
            `smpp_account:${uid}`,
            viewOf(uid),
            Effect.flatMap(find(uid), () => Effect.asVoid(store.remove(uid))),
            () => null
          ),
        authenticate: (systemId, password, address) =>
          Effect.gen(function*() {
            const at = yield* Clock.currentTimeMillis
            const f = failures.get(systemId)
            if (f !== undefined && f.lockedUntil > at) return fail(systemId, at, "locked")
            const found = yield* store.bySystemId(systemId)
            if (Option.isNone(found)) {
              // as long as a wrong password: an unknown system_id is not told apart by timing
              yield* verifyPassword(password, DUMMY_HASH)
              return fail(systemId, at, "unknown_system_id")
            }
            const account = found.value
            if (!(yield* verifyPassword(password, account.password_hash))) return fail(systemId, at, "wrong_password")
            if (account.disabled_at !== null) return fail(systemId, at, "disabled")
            if (!smppAddressAllowed(account.allowed_ips, address)) return fail(systemId, at, "address_not_allowed")
            failures.delete(systemId)
            const bound: BindCheck = { _tag: "Bound", account }
            return bound
          })
      })
    })
  )
}

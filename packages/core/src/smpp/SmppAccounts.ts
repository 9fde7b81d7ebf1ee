/**
 * SMPP credentials (issue 28): the use cases behind `/admin/v1/smpp-accounts` and the bind check of the
 * SMPP listener. Domain decides what valid credentials are (`@tuma/domain` smpp.ts); this module
 * orchestrates: a new password (shown once, scrypt-hashed at rest like portal passwords), the store, the
 * lockout after repeated failed binds. The admin API, the console and the portal call the same use
 * cases: the portal passes its account (`owner`), and credentials of another account answer 404 as
 * unknown ones. Disabling or deleting credentials asks every process holding one of their binds to
 * unbind it (`SmppBindStore.requestUnbind`). Every change is recorded in the audit log
 * (`smpp_account.create|disable|enable|rotate_password|delete`, target `smpp_account:<uid>`, the
 * password as `"***"`) when an `AuditStore` is provided.
 *
 * Lockout (decisions "SMPP server"): `LOCKOUT.failures` failed binds of one system_id within
 * `LOCKOUT.windowMillis` lock it for `LOCKOUT.lockMillis`; while locked every bind is refused, the right
 * password too. Counted in the store (`SmppStore.bindFailures`), so every process of one database shares
 * one lockout.
 */
import type { SmppAccountInput } from "@tuma/domain"
import {
  newSmppPassword,
  ResourceConflict,
  smppAccountSettings,
  smppAddressAllowed,
  smppOwnerChangeProblems
} from "@tuma/domain"
import type { ResourceNotFound, ValidationFailed } from "@tuma/domain"
import { validationFailed } from "@tuma/domain/validation"
import { Clock, Context, Effect, Layer, Option } from "effect"
import { notFound, UUID } from "../admin/context.js"
import { auditedChange, makeAudit } from "../audit/Audit.js"
import { DUMMY_HASH, hashPassword, verifyPassword } from "../portal/Passwords.js"
import { AuditStore } from "../ports/AuditStore.js"
import { Ids } from "../ports/Ids.js"
import { SmppBindStore } from "../ports/SmppBindStore.js"
import type { SmppAccountRow } from "../ports/SmppStore.js"
import { SmppStore } from "../ports/SmppStore.js"
import type { SmppAccountView, SmppAccountWithPassword } from "./views.js"
import { smppAccountView } from "./views.js"

/**
 * How often a process with an SMPP listener refreshes its binds in the `SmppBindStore`, and how old a
 * heartbeat may be before its bind counts as gone (its process died).
 */
export const BIND_HEARTBEAT = { intervalMillis: 5_000, staleMillis: 20_000 } as const

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

/** A change of credentials' limits (`PATCH /admin/v1/smpp-accounts/{uid}`): what is absent is kept. */
export type SmppLimitsChange = Pick<SmppAccountInput, "throughput" | "max_binds" | "allowed_ips">

/** The limits after a change, checked by the rules of new credentials (what the change leaves out is kept). */
const limitsOf = (row: SmppAccountRow, change: SmppLimitsChange) => {
  const settings = smppAccountSettings({
    system_id: row.system_id,
    mode: row.mode,
    throughput: change.throughput ?? { rate: row.throughput_rate, burst: row.throughput_burst },
    max_binds: change.max_binds ?? row.max_binds,
    allowed_ips: change.allowed_ips ?? row.allowed_ips
  })
  if ("problems" in settings) return validationFailed(settings.problems)
  return Effect.succeed({
    throughput_rate: settings.ok.rate,
    throughput_burst: settings.ok.burst,
    max_binds: settings.ok.max_binds,
    allowed_ips: settings.ok.allowed_ips
  })
}

/**
 * The bind check: the lockout (counted in the store, so every process of one database shares it), the
 * credentials, the password, enabled, the address.
 */
const authenticateWith = (store: SmppStore["Type"]) => {
  const fail = (systemId: string, at: Date, reason: BindRefusal) =>
    store.bindFailures.recordFailure({
      key: systemId,
      now: at,
      windowStart: new Date(at.getTime() - LOCKOUT.windowMillis),
      threshold: LOCKOUT.failures,
      lockUntil: new Date(at.getTime() + LOCKOUT.lockMillis)
    }).pipe(Effect.as<BindCheck>({ _tag: "Refused", reason }))
  return (systemId: string, password: string, address: string | undefined): Effect.Effect<BindCheck> =>
    Effect.gen(function*() {
      const at = new Date(yield* Clock.currentTimeMillis)
      if ((yield* store.bindFailures.lockedUntil(systemId, at)) !== null) return yield* fail(systemId, at, "locked")
      const found = yield* store.bySystemId(systemId)
      if (Option.isNone(found)) {
        // as long as a wrong password: an unknown system_id is not told apart by timing
        yield* verifyPassword(password, DUMMY_HASH)
        return yield* fail(systemId, at, "unknown_system_id")
      }
      const account = found.value
      if (!(yield* verifyPassword(password, account.password_hash))) return yield* fail(systemId, at, "wrong_password")
      if (account.disabled_at !== null) return yield* fail(systemId, at, "disabled")
      if (!smppAddressAllowed(account.allowed_ips, address)) return yield* fail(systemId, at, "address_not_allowed")
      yield* store.bindFailures.clearFailures(systemId)
      const bound: BindCheck = { _tag: "Bound", account }
      return bound
    })
}

/** The SMPP credential use cases. */
export class SmppAccounts extends Context.Tag("@tuma/core/SmppAccounts")<SmppAccounts, {
  readonly create: (
    input: CreateSmppAccount
  ) => Effect.Effect<SmppAccountWithPassword, ValidationFailed | ResourceConflict | ResourceNotFound>
  readonly list: (accountUid: string | undefined) => Effect.Effect<ReadonlyArray<SmppAccountView>>
  /** One; `owner`: only if they belong to that account (else 404, as unknown credentials). */
  readonly get: (uid: string, owner?: string) => Effect.Effect<SmppAccountView, ResourceNotFound>
  /** Disables (new binds refused, the binds up asked to unbind in every process) or enables. */
  readonly setDisabled: (
    uid: string,
    disabled: boolean,
    owner?: string
  ) => Effect.Effect<SmppAccountView, ResourceNotFound>
  /**
   * Changes the throughput, `max_binds` or `allowed_ips` (the others kept; a rate without a burst: the
   * burst is the rate), checked by the rules of a new one. Binds made afterwards get them; the binds up
   * keep theirs until they bind again. `owner` (the portal's owner): only credentials of that account
   * (else 404), and only `allowed_ips` — a throughput or `max_binds` other than the stored one is refused
   * (domain `smppOwnerChangeProblems`), nothing changed.
   */
  readonly change: (
    uid: string,
    change: SmppLimitsChange,
    owner?: string
  ) => Effect.Effect<SmppAccountView, ValidationFailed | ResourceNotFound>
  /** A new password, answered once; the binds up stay up. */
  readonly rotatePassword: (uid: string, owner?: string) => Effect.Effect<SmppAccountWithPassword, ResourceNotFound>
  /** Deletes the credentials and their pending receipts; their binds are asked to unbind. */
  readonly remove: (uid: string, owner?: string) => Effect.Effect<void, ResourceNotFound>
  /** A bind's credentials from `address`: the stored credentials, or why not. */
  readonly authenticate: (systemId: string, password: string, address: string | undefined) => Effect.Effect<BindCheck>
}>() {
  /** Over an `SmppStore`, an `SmppBindStore` and `Ids`; records in the audit log when an `AuditStore` is provided. */
  static readonly layer = Layer.effect(
    SmppAccounts,
    Effect.gen(function*() {
      const store = yield* SmppStore
      const binds = yield* SmppBindStore
      const ids = yield* Ids
      const auditStore = yield* Effect.serviceOption(AuditStore)
      const recorded = Option.map(auditStore, (a) => auditedChange(makeAudit(a).audited))
      /** `run`, recorded as `action` on the credentials when there is an audit log. */
      const audited = <A, E>(
        action: string,
        uid: string | ((value: A) => string),
        before: Effect.Effect<unknown, unknown>,
        run: Effect.Effect<A, E>
      ): Effect.Effect<A, E> =>
        Option.match(recorded, {
          onNone: () => run,
          onSome: (record) =>
            record(
              action,
              typeof uid === "string" ? `smpp_account:${uid}` : (a) => `smpp_account:${uid(a)}`,
              before,
              run
            )
        })
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))
      const find = (uid: string, owner?: string) =>
        (UUID.test(uid) ? store.get(uid) : Effect.succeedNone).pipe(
          Effect.map(Option.filter((row) => owner === undefined || row.account_id === owner)),
          Effect.flatMap(Option.match({
            onNone: () => Effect.fail(notFound("smpp_account", uid)),
            onSome: Effect.succeed
          }))
        )
      const before = (uid: string) => Effect.map(find(uid), smppAccountView)
      /** Asks every process holding a bind of these credentials to unbind it. */
      const unbindAll = (uid: string, at: Date) =>
        binds.requestUnbind({ smppAccountId: uid }, at, new Date(at.getTime() - BIND_HEARTBEAT.staleMillis))
      return SmppAccounts.of({
        create: (input) =>
          audited(
            "smpp_account.create",
            (v: SmppAccountWithPassword) => v.uid,
            Effect.succeed(null),
            Effect.gen(function*() {
              const settings = smppAccountSettings(input)
              if ("problems" in settings) return yield* validationFailed(settings.problems)
              if (!UUID.test(input.account_uid) || !(yield* store.accountExists(input.account_uid))) {
                return yield* notFound("account", input.account_uid)
              }
              const password = newSmppPassword()
              const at = yield* now
              const row: SmppAccountRow = {
                id: yield* ids.uuidV7,
                account_id: input.account_uid,
                system_id: settings.ok.system_id,
                password_hash: yield* hashPassword(password),
                mode: settings.ok.mode,
                throughput_rate: settings.ok.rate,
                throughput_burst: settings.ok.burst,
                max_binds: settings.ok.max_binds,
                allowed_ips: settings.ok.allowed_ips,
                disabled_at: null,
                created_at: at,
                updated_at: at
              }
              if (!(yield* store.insert(row))) {
                return yield* new ResourceConflict({
                  message: `The system_id ${row.system_id} is already taken.`,
                  resource: "smpp_account"
                })
              }
              const created: SmppAccountWithPassword = { ...smppAccountView(row), password }
              return created
            })
          ),
        list: (accountUid) =>
          accountUid !== undefined && !UUID.test(accountUid)
            ? Effect.succeed([])
            : Effect.map(store.list(accountUid), (rows) => rows.map(smppAccountView)),
        get: (uid, owner) => Effect.map(find(uid, owner), smppAccountView),
        setDisabled: (uid, disabled, owner) =>
          Effect.flatMap(find(uid, owner), () =>
            audited(
              disabled ? "smpp_account.disable" : "smpp_account.enable",
              uid,
              before(uid),
              Effect.gen(function*() {
                const at = yield* now
                const row = yield* store.update(uid, { disabled_at: disabled ? at : null }, at)
                if (disabled) yield* unbindAll(uid, at)
                return smppAccountView(yield* Option.match(row, { onNone: () => find(uid), onSome: Effect.succeed }))
              })
            )),
        change: (uid, change, owner) =>
          Effect.flatMap(find(uid, owner), (row) =>
            audited(
              "smpp_account.update",
              uid,
              before(uid),
              Effect.gen(function*() {
                const refused = owner === undefined ? undefined : smppOwnerChangeProblems({
                  rate: row.throughput_rate,
                  burst: row.throughput_burst,
                  max_binds: row.max_binds
                }, change)
                if (refused !== undefined) return yield* validationFailed(refused)
                const limits = yield* limitsOf(row, change)
                const changed = yield* store.update(uid, { limits }, yield* now)
                return smppAccountView(
                  yield* Option.match(changed, { onNone: () => find(uid), onSome: Effect.succeed })
                )
              })
            )),
        rotatePassword: (uid, owner) =>
          Effect.flatMap(find(uid, owner), () =>
            audited(
              "smpp_account.rotate_password",
              uid,
              before(uid),
              Effect.gen(function*() {
                const password = newSmppPassword()
                const at = yield* now
                const row = yield* store.update(uid, { password_hash: yield* hashPassword(password) }, at)
                const stored = yield* Option.match(row, { onNone: () => find(uid), onSome: Effect.succeed })
                const rotated: SmppAccountWithPassword = { ...smppAccountView(stored), password }
                return rotated
              })
            )),
        remove: (uid, owner) =>
          Effect.flatMap(find(uid, owner), () =>
            audited(
              "smpp_account.delete",
              uid,
              before(uid),
              Effect.gen(function*() {
                yield* store.remove(uid)
                yield* unbindAll(uid, yield* now)
              })
            )),
        authenticate: authenticateWith(store)
      })
    })
  )
}

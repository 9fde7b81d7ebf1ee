/**
 * The live SMPP binds of every process (docs/smpp.md "Live binds"): listed for the admin API and the
 * console (all accounts) and for the portal (its own account, `owner`), and unbound on request. An
 * unbind is asked through the `SmppBindStore` (the bind may live in another process, which is woken and
 * sends `unbind` to the ESME, then closes); it is recorded in the audit log as `smpp_bind.unbind`
 * (target `smpp_bind:<uid>`) when an `AuditStore` is provided. A bind whose process stopped
 * heartbeating for `BIND_HEARTBEAT.staleMillis` is not live: not listed, not found.
 */
import type { ResourceNotFound } from "@tuma/domain"
import { Clock, Context, Effect, Layer, Option } from "effect"
import { notFound, UUID } from "../admin/context.js"
import { auditedChange, makeAudit } from "../audit/Audit.js"
import { AuditStore } from "../ports/AuditStore.js"
import { SmppBindStore } from "../ports/SmppBindStore.js"
import { BIND_HEARTBEAT } from "./SmppAccounts.js"
import type { SmppBindView } from "./views.js"
import { smppBindView } from "./views.js"

/** The live-bind use cases. */
export class SmppLiveBinds extends Context.Tag("@tuma/core/SmppLiveBinds")<SmppLiveBinds, {
  /** The live binds, of one account or of all (undefined), oldest first. */
  readonly list: (accountUid: string | undefined) => Effect.Effect<ReadonlyArray<SmppBindView>>
  /**
   * Asks the process holding the bind to send `unbind` and close it; answers the bind with
   * `unbind_requested_at` set. `owner`: only a bind of that account (else 404, as an unknown one).
   */
  readonly unbind: (bindUid: string, owner?: string) => Effect.Effect<SmppBindView, ResourceNotFound>
}>() {
  /** Over an `SmppBindStore`; records in the audit log when an `AuditStore` is provided. */
  static readonly layer = Layer.effect(
    SmppLiveBinds,
    Effect.gen(function*() {
      const store = yield* SmppBindStore
      const auditStore = yield* Effect.serviceOption(AuditStore)
      const record = Option.map(auditStore, (a) => auditedChange(makeAudit(a).audited))
      const clock = Effect.map(Clock.currentTimeMillis, (ms) => ({
        now: new Date(ms),
        liveSince: new Date(ms - BIND_HEARTBEAT.staleMillis)
      }))
      const find = (uid: string, owner: string | undefined) =>
        Effect.gen(function*() {
          const { liveSince } = yield* clock
          const row = UUID.test(uid) ? yield* store.get(uid, liveSince) : Option.none()
          return yield* Option.match(Option.filter(row, (r) => owner === undefined || r.account_id === owner), {
            onNone: () => Effect.fail(notFound("smpp_bind", uid)),
            onSome: Effect.succeed
          })
        })
      const request = (uid: string) =>
        Effect.gen(function*() {
          const { liveSince, now } = yield* clock
          const marked = yield* store.requestUnbind({ bindId: uid }, now, liveSince)
          const row = marked[0]
          return row === undefined ? yield* Effect.fail(notFound("smpp_bind", uid)) : smppBindView(row)
        })
      return SmppLiveBinds.of({
        list: (accountUid) =>
          accountUid !== undefined && !UUID.test(accountUid)
            ? Effect.succeed([])
            : Effect.flatMap(clock, ({ liveSince }) =>
              Effect.map(store.list(accountUid, liveSince), (rows) => rows.map(smppBindView))),
        unbind: (uid, owner) =>
          Effect.flatMap(find(uid, owner), (row) =>
            Option.match(record, {
              onNone: () => request(uid),
              onSome: (r) => r("smpp_bind.unbind", `smpp_bind:${uid}`, Effect.succeed(smppBindView(row)), request(uid))
            }))
      })
    })
  )
}

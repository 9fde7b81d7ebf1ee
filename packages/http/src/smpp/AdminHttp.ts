/**
 * Handlers of `/admin/v1/smpp-accounts` over core's `SmppAccounts` (disabling or deleting credentials
 * asks their binds to unbind, in whichever process they live) and of `/admin/v1/smpp-binds` over
 * `SmppLiveBinds`.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { SmppAccounts, SmppLiveBinds } from "@tuma/core"
import { Effect } from "effect"
import { TumaApi } from "../Api.js"
import { requestUid } from "../shared/Envelope.js"
import type { DomainFailure } from "../shared/Errors.js"
import { toApiFailure } from "../shared/Errors.js"

const ok = <A, E extends DomainFailure, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.flatMap(
    Effect.mapError(effect, (e) => toApiFailure(e)),
    (data) => Effect.map(requestUid, (request_uid) => ({ success: true as const, request_uid, data }))
  )

/** The admin API's SMPP credential handlers. */
export const AdminSmppLive = HttpApiBuilder.group(TumaApi, "adminSmpp", (handlers) =>
  Effect.gen(function*() {
    const smpp = yield* SmppAccounts
    const binds = yield* SmppLiveBinds
    return handlers
      .handle("createSmppAccount", ({ payload }) => ok(smpp.create(payload)))
      .handle("listSmppAccounts", ({ urlParams }) => ok(smpp.list(urlParams.account_uid)))
      .handle("getSmppAccount", ({ path }) => ok(smpp.get(path.smpp_account_uid)))
      .handle("changeSmppAccount", ({ path, payload }) => ok(smpp.change(path.smpp_account_uid, payload)))
      .handle("disableSmppAccount", ({ path }) => ok(smpp.setDisabled(path.smpp_account_uid, true)))
      .handle("enableSmppAccount", ({ path }) => ok(smpp.setDisabled(path.smpp_account_uid, false)))
      .handle("rotateSmppPassword", ({ path }) => ok(smpp.rotatePassword(path.smpp_account_uid)))
      .handle(
        "deleteSmppAccount",
        ({ path }) => ok(Effect.as(smpp.remove(path.smpp_account_uid), { ok: true as const }))
      )
      .handle("listSmppBinds", ({ urlParams }) => ok(binds.list(urlParams.account_uid)))
      .handle("unbindSmppBind", ({ path }) => ok(binds.unbind(path.smpp_bind_uid)))
  }))

/**
 * Handlers of the portal's `portalSmpp` group over core's `SmppAccounts` and `SmppLiveBinds`, the same
 * use cases as the admin API, each given the session's account as `owner` (credentials or a bind of
 * another account answer 404, as unknown ones). Changes are recorded in the audit log with the portal
 * user as the actor (`portal:<email>`).
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import { SmppAccounts, SmppLiveBinds } from "@tuma/core"
import { Effect, Struct } from "effect"
import { TumaApi } from "../Api.js"
import { customerHost, SmppEndpoint } from "../smpp/Endpoint.js"
import { CurrentPortalUser } from "./Api.js"
import { asPortalUser } from "./Session.js"
import { done, mapFailure, ok } from "./Views.js"

const withoutAccount = <A extends { readonly account_uid: string }>(a: A) => Struct.omit(a, "account_uid")

export const PortalSmppLive = HttpApiBuilder.group(TumaApi, "portalSmpp", (handlers) =>
  Effect.gen(function*() {
    const smpp = yield* SmppAccounts
    const binds = yield* SmppLiveBinds
    const endpoint = yield* SmppEndpoint
    const owner = Effect.map(CurrentPortalUser, (u) => u.accountId)
    return handlers
      .handle("smpp", () =>
        Effect.gen(function*() {
          const accountId = yield* owner
          const request = yield* HttpServerRequest.HttpServerRequest
          const at = endpoint.current
          const accounts = yield* smpp.list(accountId)
          const live = yield* binds.list(accountId)
          return yield* ok({
            connection: at === undefined ? null : {
              host: customerHost(at, request.headers.host),
              port: at.port,
              tls_port: at.tlsPort,
              bind_types: ["transmitter", "receiver", "transceiver"],
              interface_versions: ["3.3", "3.4"]
            },
            accounts: accounts.map(withoutAccount),
            binds: live.map(withoutAccount)
          })
        }))
      .handle("createSmppAccount", ({ payload }) =>
        Effect.gen(function*() {
          const accountId = yield* owner
          const created = yield* smpp.create({ ...payload, account_uid: accountId }).pipe(mapFailure, asPortalUser)
          return yield* ok(withoutAccount(created))
        }))
      .handle("changeSmppAccount", ({ path, payload }) =>
        Effect.gen(function*() {
          const view = yield* smpp.change(path.smpp_account_uid, payload, yield* owner).pipe(mapFailure, asPortalUser)
          return yield* ok(withoutAccount(view))
        }))
      .handle("disableSmppAccount", ({ path }) =>
        Effect.gen(function*() {
          const view = yield* smpp.setDisabled(path.smpp_account_uid, true, yield* owner).pipe(mapFailure, asPortalUser)
          return yield* ok(withoutAccount(view))
        }))
      .handle("enableSmppAccount", ({ path }) =>
        Effect.gen(function*() {
          const view = yield* smpp.setDisabled(path.smpp_account_uid, false, yield* owner).pipe(
            mapFailure,
            asPortalUser
          )
          return yield* ok(withoutAccount(view))
        }))
      .handle("rotateSmppPassword", ({ path }) =>
        Effect.gen(function*() {
          const view = yield* smpp.rotatePassword(path.smpp_account_uid, yield* owner).pipe(mapFailure, asPortalUser)
          return yield* ok(withoutAccount(view))
        }))
      .handle("deleteSmppAccount", ({ path }) =>
        Effect.gen(function*() {
          yield* smpp.remove(path.smpp_account_uid, yield* owner).pipe(mapFailure, asPortalUser)
          return yield* done
        }))
      .handle("unbindSmppBind", ({ path }) =>
        Effect.gen(function*() {
          const view = yield* binds.unbind(path.smpp_bind_uid, yield* owner).pipe(mapFailure, asPortalUser)
          return yield* ok(withoutAccount(view))
        }))
  }))

/** Handlers of `/admin/v1/inbound-numbers` and `/admin/v1/inbound` over core's `Inbound`. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Inbound } from "@tuma/core"
import { Effect } from "effect"
import { TumaApi } from "../Api.js"
import { requestUid } from "../shared/Envelope.js"
import type { DomainFailure } from "../shared/Errors.js"
import { toApiFailure } from "../shared/Errors.js"

/** The envelope of an answer; a domain failure as its HTTP failure. */
const ok = <A, E extends DomainFailure, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const data = yield* Effect.mapError(effect, (e) => toApiFailure(e))
    return { success: true as const, request_uid: yield* requestUid, data }
  })

/** The admin API's inbound handlers. */
export const AdminInboundLive = HttpApiBuilder.group(TumaApi, "adminInbound", (handlers) =>
  Effect.gen(function*() {
    const inbound = yield* Inbound
    return handlers
      .handle("createInboundNumber", ({ payload }) => ok(inbound.createNumber(payload)))
      .handle("listInboundNumbers", ({ urlParams }) => ok(inbound.listNumbers(urlParams.account_uid)))
      .handle("getInboundNumber", ({ path }) => ok(inbound.getNumber(path.inbound_number_uid)))
      .handle("updateInboundNumber", ({ path, payload }) => ok(inbound.updateNumber(path.inbound_number_uid, payload)))
      .handle("deleteInboundNumber", ({ path }) =>
        ok(Effect.as(inbound.removeNumber(path.inbound_number_uid), { ok: true as const })))
      .handle("listUnroutedInbound", ({ urlParams }) =>
        Effect.gen(function*() {
          const page = yield* inbound.listUnrouted(urlParams).pipe(Effect.mapError((e) =>
            toApiFailure(e)
          ))
          const request_uid = yield* requestUid
          return { success: true as const, request_uid, data: page.data, meta: page.meta }
        }))
  }))

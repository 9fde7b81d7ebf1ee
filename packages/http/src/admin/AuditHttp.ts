/**
 * Handler of `GET /admin/v1/audit-log` over core's `Audit`: the filters as given (core checks them:
 * 422 by field), the page newest first with `meta.next_before`, in the envelope.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Audit } from "@tuma/core"
import { Effect } from "effect"
import { TumaApi } from "../Api.js"
import { requestUid } from "../shared/Envelope.js"
import { toApiFailure } from "../shared/Errors.js"

export const AdminAuditLive = HttpApiBuilder.group(TumaApi, "adminAudit", (handlers) =>
  Effect.gen(function*() {
    const audit = yield* Audit
    return handlers.handle("auditLog", ({ urlParams }) =>
      Effect.flatMap(
        Effect.mapError(audit.page(urlParams), toApiFailure),
        (page) => Effect.map(requestUid, (request_uid) => ({ success: true as const, request_uid, ...page }))
      ))
  }))

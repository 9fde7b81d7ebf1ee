/**
 * `/healthz` (the process answers) and `/readyz` (the store answers a query).
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { TumaApi } from "../Api.js"
import { requestUid, ServiceUnavailable } from "../shared/Envelope.js"

export const SystemLive = HttpApiBuilder.group(TumaApi, "system", (handlers) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return handlers
      .handle("healthz", () =>
        Effect.map(requestUid, (request_uid) => ({
          success: true as const,
          request_uid,
          data: { status: "ok" }
        })))
      .handle("readyz", () =>
        Effect.gen(function*() {
          const request_uid = yield* requestUid
          yield* sql`SELECT 1`.pipe(
            Effect.timeout("2 seconds"),
            Effect.catchAllCause(() =>
              Effect.fail(ServiceUnavailable.of({ message: "The store does not answer.", error_code: "NOT_READY" }))
            )
          )
          return { success: true as const, request_uid, data: { status: "ready", checks: { store: "ok" } } }
        }))
  }))

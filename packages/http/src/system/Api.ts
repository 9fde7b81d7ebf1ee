/** The `system` group of the public API: health and readiness. */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { ServiceUnavailable } from "../shared/Envelope.js"
import * as Res from "../shared/Responses.js"

// --- system -------------------------------------------------------------------------------

/** API group: health and readiness. */
export class SystemGroup extends HttpApiGroup.make("system")
  .add(
    HttpApiEndpoint.get("healthz", "/healthz")
      .addSuccess(Res.HealthResponse)
      .annotate(OpenApi.Summary, "Liveness: the process answers")
  )
  .add(
    HttpApiEndpoint.get("readyz", "/readyz")
      .addSuccess(Res.HealthResponse)
      .addError(ServiceUnavailable)
      .annotate(OpenApi.Summary, "Readiness: the store answers")
  )
  .annotate(OpenApi.Title, "System")
{}

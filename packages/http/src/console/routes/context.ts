/**
 * What each area of the console's routes registers its routes with: the router's methods (each
 * handler run with the server's services), the base path, and the portal's request helpers and
 * settings (cookies, client address, links).
 */
import type * as HttpRouter from "@effect/platform/HttpRouter"
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import type { Admin, Reads } from "@tuma/core"
import type { Audit } from "@tuma/core/audit/Audit"
import type { OperatorAccess } from "@tuma/core/operators/OperatorAccess"
import type { SenderIdReview } from "@tuma/core/operators/Review"
import type { PortalAccess } from "@tuma/core/portal/PortalAccess"
import type { PortalConfig } from "@tuma/core/portal/PortalConfig"
import type { WebhookAdmin } from "@tuma/core/webhooks/WebhookAdmin"
import type { Effect } from "effect"
import type { PortalRequest } from "../../portal/Session.js"

/** The services the console's handlers run with (the server's layer provides them). */
export type Services =
  | Admin
  | Reads
  | WebhookAdmin
  | OperatorAccess
  | PortalAccess
  | SenderIdReview
  | PortalRequest
  | Audit

/** Registers a handler for a method at a path. */
export type Register = <E>(
  path: `/${string}`,
  handler: Effect.Effect<HttpServerResponse.HttpServerResponse, E, Services | HttpRouter.HttpRouter.Provided>
) => Effect.Effect<void>

/** What an area's routes are registered with. */
export interface ConsoleRoutes {
  readonly on: { readonly get: Register; readonly post: Register; readonly put: Register; readonly del: Register }
  readonly base: "/console/api"
  readonly portal: PortalRequest["Type"]
  readonly settings: PortalConfig["Type"]
}

/**
 * The console API under `/console/api/…` (issue 15). Each route names the permission it needs
 * (see `Http.ts`) and calls one core use case (`Admin`, `WebhookAdmin`, `Reads`, `OperatorAccess`,
 * `SenderIdReview`) with the operator as `Actor`. The list of routes is docs/console.md's.
 *
 * Why one file of ≈560 lines: the console API's route table (one route per line with its
 * permission), each calling one core use case.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { PortalConfig } from "@tuma/core/portal/PortalConfig"
import { Effect } from "effect"
import { PortalRequest } from "../portal/Session.js"
import { accountsRoutes } from "./routes/accounts.js"
import type { ConsoleRoutes, Register, Services } from "./routes/context.js"
import { operatorsRoutes } from "./routes/operators.js"
import { platformRoutes } from "./routes/platform.js"
import { recordsRoutes } from "./routes/records.js"
import { senderIdsRoutes } from "./routes/senderIds.js"
import { sessionRoutes } from "./routes/session.js"
import { spamRoutes } from "./routes/spam.js"

/** The areas of the console's routes, in the order they are registered. */
const areas = [
  sessionRoutes,
  operatorsRoutes,
  accountsRoutes,
  senderIdsRoutes,
  platformRoutes,
  spamRoutes,
  recordsRoutes
]

/** The `/console/api` routes on the API's router. */
export const layer = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const portal = yield* PortalRequest
    const settings = yield* PortalConfig
    // the handlers run with the services of the server's layer (the router's own are the defaults)
    const services = yield* Effect.context<Services>()
    const method = (add: typeof router.get): Register => (path, handler) => add(path, Effect.provide(handler, services))
    const routes: ConsoleRoutes = {
      on: { get: method(router.get), post: method(router.post), put: method(router.put), del: method(router.del) },
      base: "/console/api",
      portal,
      settings
    }
    for (const area of areas) yield* area(routes)
  })
)

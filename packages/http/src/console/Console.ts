/**
 * The operator console's server side, assembled (contract in `Api.ts`, one module per area in
 * `api/`, their handlers in `handlers/`):
 *
 *   layerHandlers   the groups' handlers, each calling core's use cases (`Admin`,
 *                   `WebhookAdmin`, `Reads`, `Audit`, `OperatorAccess`, `SenderIdReview`, `Inbound`)
 *   layerHttp       the session/CSRF/permission middlewares (`Http.ts`)
 */
import { Layer } from "effect"
import { ConsoleAccountsLive } from "./handlers/accounts.js"
import { ConsoleInboundLive } from "./handlers/inbound.js"
import { ConsoleOperatorsLive } from "./handlers/operators.js"
import { ConsolePlatformLive } from "./handlers/platform.js"
import { ConsoleRecordsLive } from "./handlers/records.js"
import { ConsoleSenderIdsLive } from "./handlers/senderIds.js"
import { ConsoleSessionLive } from "./handlers/session.js"
import { ConsoleSmppLive } from "./handlers/smpp.js"
import { ConsoleSpamLive } from "./handlers/spam.js"
import { layerMiddlewares } from "./Http.js"

export const layerHandlers = Layer.mergeAll(
  ConsoleSessionLive,
  ConsoleOperatorsLive,
  ConsoleAccountsLive,
  ConsoleSenderIdsLive,
  ConsolePlatformLive,
  ConsoleSpamLive,
  ConsoleRecordsLive,
  ConsoleSmppLive,
  ConsoleInboundLive
)

export const layerHttp = layerMiddlewares

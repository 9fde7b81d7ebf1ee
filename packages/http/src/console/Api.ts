/**
 * The operator console's HTTP contract: endpoints under `/console/api/…`, declared by area in
 * `console/api/` (session, operators, accounts, sender IDs, platform, spam, records, smpp, inbound), each behind
 * `ConsoleOperator` with the permission it needs or, before sign-in, `ConsoleAnonymousCsrf`
 * (`api/shared.ts`). Part of `TumaApi`; its groups are left out of the public OpenAPI document.
 * The console's browser app calls it over `fetch` (packages/portal/src/console/api.ts).
 */
import { makeApi } from "../shared/apiSchemas.js"
import { ConsoleAccountsGroup } from "./api/accounts.js"
import { ConsoleInboundGroup } from "./api/inbound.js"
import { ConsoleOperatorsGroup } from "./api/operators.js"
import { ConsolePlatformGroup } from "./api/platform.js"
import { ConsoleRecordsGroup } from "./api/records.js"
import { ConsoleSenderIdsGroup } from "./api/senderIds.js"
import { ConsoleSessionGroup } from "./api/session.js"
import { ConsoleSmppGroup } from "./api/smpp.js"
import { ConsoleSpamGroup } from "./api/spam.js"

export class ConsoleApi extends makeApi("console")
  .add(ConsoleSessionGroup)
  .add(ConsoleOperatorsGroup)
  .add(ConsoleAccountsGroup)
  .add(ConsoleSenderIdsGroup)
  .add(ConsolePlatformGroup)
  .add(ConsoleSpamGroup)
  .add(ConsoleRecordsGroup)
  .add(ConsoleSmppGroup)
  .add(ConsoleInboundGroup)
  .prefix("/console/api")
{}

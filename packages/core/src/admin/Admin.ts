/**
 * `Admin`: the operator surface ("the portal" of the spec) as one service, called by the admin API
 * (`/admin/v1`) and by the `tuma` CLI. No HTTP here.
 *
 * - accounts: create, read, list, suspend, activate;
 * - API keys: issue (`tuma_live_…`/`tuma_test_…` + 40 random base62 characters; only the SHA-256
 *   is stored; the key is answered once), list, read, update (name, scopes, allowed IPs/CIDRs,
 *   expiry), revoke;
 * - wallets: credit purchases per country (a `purchase` ledger row; feeds `purchased_units`), list,
 *   ledger, enable/disable;
 * - SMS routes: verify (per country, with the verified phone), list, remove;
 * - markets: list, open, close;
 * - sender IDs: list, read (with document metadata and content), grant directly (approved), and the
 *   moves of decisions §18 through the domain state machine (`transitionSenderId`): approve,
 *   reject (reason required), suspend, reinstate. A move is a compare-and-set on the status, so two
 *   operators acting at once cannot both win;
 * - sender-ID requirement documents: create, list, delete (deactivate: documents already submitted
 *   keep their reference);
 * - opt-outs (recipients normalised to E.164): add, remove, list;
 * - spam rules (`blocked_phrase`, `blocked_domain`; per account or global): add, remove, list;
 * - providers: create (with initial credit per country), list, enable/disable, credit per country
 *   (set or add), routes per country in order.
 *
 * Every change is recorded in the audit log (`Audit`, for the `Actor` the caller provides), in the
 * same store transaction as the change.
 *
 * Webhook endpoints are `WebhookAdmin`'s. Inputs and views are Schemas (snake_case, ISO strings) so
 * the admin API can use them as payloads and responses as they are. Failures: `ValidationFailed`
 * (422, by field), `ResourceNotFound` (404), `ResourceConflict` / `SenderIdAlreadyRequested` /
 * `IllegalTransition` (409).
 */
import { Context, Effect, Layer } from "effect"
import { AdminStore } from "../ports/AdminStore.js"
import { AuditStore } from "../ports/AuditStore.js"
import { Ids } from "../ports/Ids.js"
import { OperatorStore } from "../ports/OperatorStore.js"
import { ReadStore } from "../ports/ReadStore.js"
import { SenderIdStore } from "../ports/SenderIdStore.js"
import { makeAccounts } from "./accounts.js"
import { makeApiKeys } from "./apiKeys.js"
import { withAuditTrail } from "./auditTrail.js"
import { makeAdminContext } from "./context.js"
import { makeMarkets } from "./markets.js"
import { makeOptOuts } from "./optOuts.js"
import { makeProviders } from "./providers.js"
import { makeRequirements } from "./requirements.js"
import { makeRoutes } from "./routes.js"
import { makeSenderIdReview } from "./senderIdReview.js"
import type { AdminService } from "./service.js"
import { makeSpamRules } from "./spamRules.js"
import { makeWallets } from "./wallets.js"

export type { AdminService } from "./service.js"

/**
 * The `AdminService` as an Effect service; `Admin.layer` builds it over the admin, operator, sender-ID and
 * read stores.
 */
export class Admin extends Context.Tag("@tuma/core/Admin")<Admin, AdminService>() {
  /** Every change is recorded in the audit log (`AuditStore`), in the change's transaction, for the current `Actor`. */
  static readonly layer: Layer.Layer<
    Admin,
    never,
    AdminStore | OperatorStore | SenderIdStore | ReadStore | Ids | AuditStore
  > = Layer
    .effect(
      Admin,
      Effect.map(makeAdminContext, (ctx): AdminService =>
        withAuditTrail(ctx, {
          ...makeAccounts(ctx),
          ...makeApiKeys(ctx),
          ...makeWallets(ctx),
          ...makeRoutes(ctx),
          ...makeMarkets(ctx),
          ...makeSenderIdReview(ctx),
          ...makeRequirements(ctx),
          ...makeOptOuts(ctx),
          ...makeSpamRules(ctx),
          ...makeProviders(ctx)
        }))
    )
}

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
import type { IllegalTransition, ValidationFailed } from "@tuma/domain"
import { ResourceConflict, ResourceNotFound, SenderIdAlreadyRequested } from "@tuma/domain"
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
import {
  CorrectionInput,
  CountryRoutesInput,
  CreateAccountInput,
  CreateProviderInput,
  CreateRequirementInput,
  GrantSenderIdInput,
  IssueApiKeyInput,
  ListAccountsInput,
  ListSenderIdsInput,
  OptOutInput,
  ProviderCreditInput,
  PurchaseInput,
  SpamRuleInput,
  UpdateApiKeyInput,
  VerifyRouteInput
} from "./inputs.js"
import { makeMarkets } from "./markets.js"
import { makeOptOuts } from "./optOuts.js"
import { makeProviders } from "./providers.js"
import { makeRequirements } from "./requirements.js"
import { makeRoutes } from "./routes.js"
import { makeSenderIdReview } from "./senderIdReview.js"
import { makeSpamRules } from "./spamRules.js"
import {
  AccountDetail,
  AccountView,
  ApiKeyView,
  CountryRoutesView,
  IssuedApiKey,
  LedgerEntryView,
  MarketView,
  OptOutView,
  ProviderView,
  PurchaseView,
  RequirementView,
  RouteView,
  SenderIdAdminView,
  SenderIdDetail,
  SenderIdDocumentView,
  SpamRuleView,
  WalletView
} from "./views.js"
import { makeWallets } from "./wallets.js"

// ---------------------------------------------------------------------------------------------
// The service
// ---------------------------------------------------------------------------------------------

type NotFound = ResourceNotFound
type Invalid = ValidationFailed

/**
 * The operator portal's use cases (accounts, API keys, wallets and ledger, routes, markets, sender-ID review,
 * requirement documents, opt-outs, spam rules, providers), as served by the admin API.
 */
export interface AdminService {
  // accounts
  readonly createAccount: (input: CreateAccountInput) => Effect.Effect<AccountView, Invalid | ResourceConflict>
  readonly getAccount: (accountId: string) => Effect.Effect<AccountDetail, NotFound>
  readonly listAccounts: (input?: ListAccountsInput) => Effect.Effect<ReadonlyArray<AccountView>>
  readonly suspendAccount: (accountId: string) => Effect.Effect<AccountView, NotFound>
  readonly activateAccount: (accountId: string) => Effect.Effect<AccountView, NotFound>
  // API keys
  readonly issueApiKey: (input: IssueApiKeyInput) => Effect.Effect<IssuedApiKey, Invalid | NotFound>
  readonly listApiKeys: (accountId: string) => Effect.Effect<ReadonlyArray<ApiKeyView>, NotFound>
  readonly getApiKey: (keyId: string) => Effect.Effect<ApiKeyView, NotFound>
  readonly updateApiKey: (keyId: string, input: UpdateApiKeyInput) => Effect.Effect<ApiKeyView, Invalid | NotFound>
  readonly revokeApiKey: (keyId: string) => Effect.Effect<ApiKeyView, NotFound>
  // wallets
  readonly purchaseCredits: (input: PurchaseInput) => Effect.Effect<PurchaseView, Invalid | NotFound>
  /** A correction as an `adjustment` ledger row; refused (422, nothing written) below 0. */
  readonly correctCredits: (input: CorrectionInput) => Effect.Effect<PurchaseView, Invalid | NotFound>
  readonly listWallets: (accountId: string) => Effect.Effect<ReadonlyArray<WalletView>, NotFound>
  readonly ledger: (
    accountId: string,
    options?: { readonly country?: string | undefined; readonly limit?: number | undefined }
  ) => Effect.Effect<ReadonlyArray<LedgerEntryView>, Invalid | NotFound>
  readonly setWalletEnabled: (
    accountId: string,
    country: string,
    enabled: boolean
  ) => Effect.Effect<WalletView, Invalid | NotFound>
  // routes
  readonly verifyRoute: (input: VerifyRouteInput) => Effect.Effect<RouteView, Invalid | NotFound>
  readonly listRoutes: (accountId: string) => Effect.Effect<ReadonlyArray<RouteView>, NotFound>
  readonly removeRoute: (accountId: string, country: string) => Effect.Effect<void, Invalid | NotFound>
  // markets
  readonly listMarkets: Effect.Effect<ReadonlyArray<MarketView>>
  readonly setMarketOpen: (country: string, open: boolean) => Effect.Effect<MarketView, NotFound>
  // sender IDs
  readonly listSenderIds: (input?: ListSenderIdsInput) => Effect.Effect<ReadonlyArray<SenderIdAdminView>>
  readonly getSenderId: (senderIdId: string) => Effect.Effect<SenderIdDetail, NotFound>
  readonly getSenderIdDocument: (documentId: string) => Effect.Effect<
    { readonly document: SenderIdDocumentView; readonly content: Uint8Array },
    NotFound
  >
  readonly grantSenderId: (
    input: GrantSenderIdInput
  ) => Effect.Effect<SenderIdAdminView, Invalid | NotFound | SenderIdAlreadyRequested>
  readonly approveSenderId: (
    senderIdId: string
  ) => Effect.Effect<SenderIdAdminView, NotFound | IllegalTransition | Invalid>
  readonly rejectSenderId: (
    senderIdId: string,
    reason: string
  ) => Effect.Effect<SenderIdAdminView, NotFound | IllegalTransition | Invalid>
  readonly suspendSenderId: (
    senderIdId: string,
    reason?: string | null
  ) => Effect.Effect<SenderIdAdminView, NotFound | IllegalTransition | Invalid>
  readonly reinstateSenderId: (
    senderIdId: string
  ) => Effect.Effect<SenderIdAdminView, NotFound | IllegalTransition | Invalid>
  // requirement documents
  readonly createRequirement: (input: CreateRequirementInput) => Effect.Effect<RequirementView, Invalid>
  readonly listRequirements: (
    options?: { readonly include_inactive?: boolean | undefined }
  ) => Effect.Effect<ReadonlyArray<RequirementView>>
  readonly deleteRequirement: (requirementId: string) => Effect.Effect<void, NotFound>
  // opt-outs
  readonly addOptOut: (input: OptOutInput) => Effect.Effect<OptOutView, Invalid | NotFound>
  readonly removeOptOut: (accountId: string, recipient: string) => Effect.Effect<void, Invalid | NotFound>
  readonly listOptOuts: (accountId: string) => Effect.Effect<ReadonlyArray<OptOutView>, NotFound>
  // spam rules
  readonly addSpamRule: (input: SpamRuleInput) => Effect.Effect<SpamRuleView, Invalid | NotFound>
  readonly removeSpamRule: (ruleId: string) => Effect.Effect<void, Invalid | NotFound>
  /** Built-in entries first (global), then the stored rules; `account_uid` lists one account's own. */
  readonly listSpamRules: (
    filter?: { readonly account_uid?: string | null | undefined }
  ) => Effect.Effect<ReadonlyArray<SpamRuleView>>
  /** Switches a stored rule or a built-in entry on or off; every process applies it on its next send. */
  readonly setSpamRuleEnabled: (ruleId: string, enabled: boolean) => Effect.Effect<SpamRuleView, NotFound>
  // providers
  readonly createProvider: (input: CreateProviderInput) => Effect.Effect<ProviderView, Invalid | ResourceConflict>
  readonly listProviders: Effect.Effect<ReadonlyArray<ProviderView>>
  readonly getProvider: (providerId: string) => Effect.Effect<ProviderView, NotFound>
  readonly setProviderEnabled: (providerId: string, enabled: boolean) => Effect.Effect<ProviderView, NotFound>
  readonly creditProvider: (
    providerId: string,
    input: ProviderCreditInput
  ) => Effect.Effect<ProviderView, Invalid | NotFound>
  readonly setCountryRoutes: (
    country: string,
    input: CountryRoutesInput
  ) => Effect.Effect<CountryRoutesView, Invalid | NotFound>
  readonly countryRoutes: (country: string) => Effect.Effect<CountryRoutesView, Invalid>
}

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

/**
 * The shape of the `Admin` service: every operator use case, grouped by subject. Its own module so the
 * parts (`accounts.ts`, `wallets.ts`, …) can name it without importing `Admin.ts`, which assembles them.
 */
import type {
  CarrierWarning,
  IllegalTransition,
  ResourceConflict,
  ResourceNotFound,
  SenderIdAlreadyRequested,
  ValidationFailed
} from "@tuma/domain"
import type { Effect } from "effect"
import type {
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
import type {
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
  /**
   * Disabling the last carrier of an open market is refused (409, nothing changes) unless
   * `confirmNoRoute` is true: that market's sends would be accepted and then fail "no carrier route".
   */
  readonly setProviderEnabled: (
    providerId: string,
    enabled: boolean,
    options?: { readonly confirmNoRoute?: boolean | undefined }
  ) => Effect.Effect<ProviderView, NotFound | ResourceConflict>
  /** What the operator should be warned about: open markets no carrier serves, enabled carriers that cannot start. */
  readonly carrierWarnings: Effect.Effect<ReadonlyArray<CarrierWarning>>
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

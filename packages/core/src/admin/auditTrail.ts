/**
 * The audit trail of `Admin`: every mutating use case wrapped so that the change and its audit entry
 * (action, target, the value before and after, for the current `Actor`) are committed in one store
 * transaction. The values are the admin API's views (secrets are replaced by `"***"` when recorded;
 * an issued key is recorded without the key). Read-only use cases pass through unchanged.
 *
 * Actions are `<thing>.<verb>`; targets `<thing>:<id>` (`account:<uid>` for what belongs to an
 * account and has no id of its own: wallets, routes, opt-outs; `market:<ISO2>` for markets and the
 * routing order of a country).
 */
import { Effect, Option, Struct } from "effect"
import { auditedChange } from "../audit/Audit.js"
import type { AdminContext } from "./context.js"
import { UUID } from "./context.js"
import type { AdminService } from "./service.js"
import {
  accountView,
  apiKeyView,
  countryRouteView,
  marketView,
  optOutView,
  providerView,
  senderIdAdminView,
  spamRuleView
} from "./viewsOf.js"

/**
 * The use cases that change nothing. Every other method of `AdminService` must be wrapped below:
 * a method added to the service fails the type check here until it is listed as a read or recorded.
 */
const READS = [
  "getAccount",
  "listAccounts",
  "listApiKeys",
  "getApiKey",
  "listWallets",
  "ledger",
  "listRoutes",
  "listMarkets",
  "listSenderIds",
  "getSenderId",
  "getSenderIdDocument",
  "listRequirements",
  "listOptOuts",
  "listSpamRules",
  "listProviders",
  "getProvider",
  "countryRoutes",
  "carrierWarnings"
] as const satisfies ReadonlyArray<keyof AdminService>
type Read = (typeof READS)[number]

/** The values before a change, as the admin API's views (null when there was none). */
const makeBefores = (ctx: AdminContext, s: AdminService) => {
  const { account, admin, e164, market, now, op, providerRow, routesOf, senderIdRow, walletsOf } = ctx
  const accountBefore = (id: string) => Effect.map(account(id), accountView)
  const keyBefore = (id: string) => Effect.zipWith(ctx.apiKeyRow(id), now, apiKeyView)
  // `account` first: it answers 404 for a malformed id before any store reads it
  const walletBefore = (accountId: string, country: string) =>
    Effect.gen(function*() {
      yield* account(accountId)
      const m = yield* market(country)
      return (yield* walletsOf(accountId)).find((w) => w.country_uid === m.id) ?? null
    })
  const routeBefore = (accountId: string, country: string) =>
    Effect.gen(function*() {
      yield* account(accountId)
      const m = yield* market(country)
      return (yield* routesOf(accountId)).find((r) => r.country_uid === m.id) ?? null
    })
  const senderIdBefore = (id: string) => Effect.map(senderIdRow(id), senderIdAdminView)
  const marketBefore = (country: string) =>
    Effect.map(op.findMarket(country.toUpperCase()), (m) => Option.getOrNull(Option.map(m, marketView)))
  const optOutBefore = (accountId: string, recipient: string) =>
    Effect.gen(function*() {
      yield* account(accountId)
      const e = yield* e164(recipient)
      return Option.getOrNull(Option.map(yield* admin.findOptOut(accountId, e), optOutView))
    })
  const spamRuleBefore = (id: string) =>
    UUID.test(id)
      ? Effect.map(admin.findSpamRule(id), (r) => Option.getOrNull(Option.map(r, spamRuleView)))
      : Effect.map(s.listSpamRules(), (rules) => rules.find((r) => r.uid === id) ?? null)
  const providerBefore = (id: string) => Effect.map(providerRow(id), providerView)
  const countryRoutesBefore = (country: string) =>
    Effect.gen(function*() {
      const m = yield* market(country)
      return { country: m.iso2, routes: (yield* admin.countryRoutes(m.id)).map(countryRouteView) }
    })
  return {
    accountBefore,
    keyBefore,
    walletBefore,
    routeBefore,
    senderIdBefore,
    marketBefore,
    optOutBefore,
    spamRuleBefore,
    providerBefore,
    countryRoutesBefore
  }
}

type Befores = ReturnType<typeof makeBefores>
type Change = ReturnType<typeof auditedChange>
type Changes = Omit<AdminService, Read>

/** The changes an account's own things go through: the account, its keys, wallets, routes and opt-outs. */
type AccountChange =
  | "createAccount"
  | "suspendAccount"
  | "activateAccount"
  | "issueApiKey"
  | "updateApiKey"
  | "revokeApiKey"
  | "purchaseCredits"
  | "correctCredits"
  | "setWalletEnabled"
  | "verifyRoute"
  | "removeRoute"
  | "addOptOut"
  | "removeOptOut"

const nothing = Effect.succeed(null)

/** The account's changes, recorded. */
const accountChanges = (s: AdminService, change: Change, b: Befores): Pick<Changes, AccountChange> => {
  const { accountBefore, keyBefore, optOutBefore, routeBefore, walletBefore } = b
  return {
    // accounts
    createAccount: (input) => change("account.create", (a) => `account:${a.uid}`, nothing, s.createAccount(input)),
    suspendAccount: (id) => change("account.suspend", `account:${id}`, accountBefore(id), s.suspendAccount(id)),
    activateAccount: (id) => change("account.activate", `account:${id}`, accountBefore(id), s.activateAccount(id)),
    // API keys: the key itself is never recorded
    issueApiKey: (input) =>
      change("api_key.issue", (k) => `api_key:${k.api_key.uid}`, nothing, s.issueApiKey(input), (k) => k.api_key),
    updateApiKey: (id, input) => change("api_key.update", `api_key:${id}`, keyBefore(id), s.updateApiKey(id, input)),
    revokeApiKey: (id) => change("api_key.revoke", `api_key:${id}`, keyBefore(id), s.revokeApiKey(id)),
    // wallets
    purchaseCredits: (input) =>
      change(
        "wallet.top_up",
        `account:${input.account_uid}`,
        walletBefore(input.account_uid, input.country),
        s.purchaseCredits(input)
      ),
    correctCredits: (input) =>
      change(
        "wallet.correct",
        `account:${input.account_uid}`,
        walletBefore(input.account_uid, input.country),
        s.correctCredits(input)
      ),
    setWalletEnabled: (accountId, country, enabled) =>
      change(
        enabled ? "wallet.enable" : "wallet.disable",
        `account:${accountId}`,
        walletBefore(accountId, country),
        s.setWalletEnabled(accountId, country, enabled)
      ),
    // routes
    verifyRoute: (input) =>
      change(
        "route.verify",
        `account:${input.account_uid}`,
        routeBefore(input.account_uid, input.country),
        s.verifyRoute(input)
      ),
    removeRoute: (accountId, country) =>
      change(
        "route.remove",
        `account:${accountId}`,
        routeBefore(accountId, country),
        s.removeRoute(accountId, country),
        () => null
      ),
    // opt-outs
    addOptOut: (input) =>
      change(
        "opt_out.add",
        `account:${input.account_uid}`,
        optOutBefore(input.account_uid, input.recipient),
        s.addOptOut(input)
      ),
    removeOptOut: (accountId, recipient) =>
      change(
        "opt_out.remove",
        `account:${accountId}`,
        optOutBefore(accountId, recipient),
        s.removeOptOut(accountId, recipient),
        () => null
      )
  }
}

/** The platform's changes, recorded: markets, sender-ID review, requirements, spam rules, providers. */
const platformChanges = (s: AdminService, change: Change, b: Befores): Omit<Changes, AccountChange> => {
  const { countryRoutesBefore, marketBefore, providerBefore, senderIdBefore, spamRuleBefore } = b
  const moved = <A, E>(action: string, id: string, run: Effect.Effect<A, E>) =>
    change(`sender_id.${action}`, `sender_id:${id}`, senderIdBefore(id), run)
  return {
    // markets
    setMarketOpen: (country, open) =>
      change(
        open ? "market.open" : "market.close",
        `market:${country.toUpperCase()}`,
        marketBefore(country),
        s.setMarketOpen(country, open)
      ),
    // sender IDs
    grantSenderId: (input) => change("sender_id.grant", (v) => `sender_id:${v.uid}`, nothing, s.grantSenderId(input)),
    approveSenderId: (id) => moved("approve", id, s.approveSenderId(id)),
    rejectSenderId: (id, reason) => moved("reject", id, s.rejectSenderId(id, reason)),
    suspendSenderId: (id, reason) => moved("suspend", id, s.suspendSenderId(id, reason)),
    reinstateSenderId: (id) => moved("reinstate", id, s.reinstateSenderId(id)),
    // requirement documents
    createRequirement: (input) =>
      change("requirement.create", (r) => `requirement:${r.uid}`, nothing, s.createRequirement(input)),
    deleteRequirement: (id) =>
      change("requirement.delete", `requirement:${id}`, nothing, s.deleteRequirement(id), () => ({ active: false })),
    // spam rules
    addSpamRule: (input) => change("spam_rule.add", (r) => `spam_rule:${r.uid}`, nothing, s.addSpamRule(input)),
    removeSpamRule: (id) =>
      change("spam_rule.remove", `spam_rule:${id}`, spamRuleBefore(id), s.removeSpamRule(id), () => null),
    setSpamRuleEnabled: (id, enabled) =>
      change(
        enabled ? "spam_rule.enable" : "spam_rule.disable",
        `spam_rule:${id}`,
        spamRuleBefore(id),
        s.setSpamRuleEnabled(id, enabled)
      ),
    // providers: the config (credentials) is recorded with its secrets as "***"
    createProvider: (input) =>
      change(
        "provider.create",
        (p) => `provider:${p.uid}`,
        nothing,
        s.createProvider(input),
        (p) => ({ ...p, config: input.config ?? {} })
      ),
    setProviderEnabled: (id, enabled, options) =>
      change(
        enabled ? "provider.enable" : "provider.disable",
        `provider:${id}`,
        providerBefore(id),
        s.setProviderEnabled(id, enabled, options)
      ),
    creditProvider: (id, input) =>
      change("provider.credit", `provider:${id}`, providerBefore(id), s.creditProvider(id, input)),
    setCountryRoutes: (country, input) =>
      change(
        "provider_routes.set",
        `market:${String(country).toUpperCase()}`,
        countryRoutesBefore(country),
        s.setCountryRoutes(country, input)
      )
  }
}

/** `service` with every change recorded in the audit log, in the change's transaction. */
export const withAuditTrail = (ctx: AdminContext, s: AdminService): AdminService => {
  const change = auditedChange(ctx.audited)
  const befores = makeBefores(ctx, s)
  const reads: Pick<AdminService, Read> = Struct.pick(s, ...READS)
  return { ...reads, ...accountChanges(s, change, befores), ...platformChanges(s, change, befores) }
}

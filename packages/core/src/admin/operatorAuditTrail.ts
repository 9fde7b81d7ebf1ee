/**
 * The audit trail of `Operator` (the set-up steps the `tuma` command runs): each step and its audit
 * entry committed in one store transaction, for the current `Actor`. Action and target names are
 * `Admin`'s (`auditTrail.ts`); an issued key is recorded without the key, a provider's config with
 * its secrets as `"***"`.
 */
import { Effect, Option } from "effect"
import type { AuditService } from "../audit/Audit.js"
import { auditedChange } from "../audit/Audit.js"
import type { OperatorStore } from "../ports/OperatorStore.js"
import { UUID } from "./context.js"
import type { OperatorService } from "./operatorService.js"

/** `service` with every step recorded through `audit` (every step of `Operator` changes something). */
export const withOperatorAuditTrail = (
  audit: AuditService,
  store: OperatorStore["Type"],
  s: OperatorService
): OperatorService => {
  const change = auditedChange(audit.audited)
  const nothing = Effect.succeed(null)
  const activeOf = (accountId: string) =>
    UUID.test(accountId)
      ? Effect.map(store.findAccount(accountId), (a) =>
        Option.getOrNull(Option.map(a, (row) => ({ active: row.active }))))
      : nothing
  const openOf = (country: string) =>
    Effect.map(
      store.findMarket(country.toUpperCase()),
      (m) => Option.getOrNull(Option.map(m, (row) => ({ open: row.open })))
    )

  // every step listed: a step added to `Operator` fails the type check here until it is recorded
  return {
    createAccount: (input) =>
      change("account.create", (a) => `account:${a.id}`, nothing, s.createAccount(input), (a) => a),
    setAccountActive: (accountId, active) =>
      change(
        active ? "account.activate" : "account.suspend",
        `account:${accountId}`,
        activeOf(accountId),
        s.setAccountActive(accountId, active),
        () => ({ active })
      ),
    issueApiKey: (input) =>
      change(
        "api_key.issue",
        (k) => `api_key:${k.id}`,
        nothing,
        s.issueApiKey(input),
        (k) => ({
          account_uid: input.accountId,
          name: input.name ?? "",
          prefix: k.prefix,
          mode: k.mode,
          scopes: k.scopes
        })
      ),
    purchaseCredits: (input) =>
      change(
        "wallet.top_up",
        `account:${input.accountId}`,
        nothing,
        s.purchaseCredits(input),
        (w) => ({ ...input, wallet_uid: w.walletId, balance: w.balance })
      ),
    verifyRoute: (input) =>
      change("route.verify", `account:${input.accountId}`, nothing, s.verifyRoute(input), () => input),
    grantSenderId: (input) =>
      change("sender_id.grant", (g) => `sender_id:${g.id}`, nothing, s.grantSenderId(input), (g) => ({
        ...g,
        account_uid: input.accountId
      })),
    addProvider: (input) =>
      change("provider.create", (p) => `provider:${p.id}`, nothing, s.addProvider(input), () => input),
    setProviderCredit: (input) =>
      change("provider.credit", `provider:${input.providerId}`, nothing, s.setProviderCredit(input), () => input),
    setMarketOpen: (country, open) =>
      change(
        open ? "market.open" : "market.close",
        `market:${country.toUpperCase()}`,
        openOf(country),
        s.setMarketOpen(country, open),
        () => ({ open })
      ),
    addOptOut: (accountId, recipient, reason) =>
      change(
        "opt_out.add",
        `account:${accountId}`,
        nothing,
        s.addOptOut(accountId, recipient, reason),
        () => ({ recipient, reason: reason ?? null })
      ),
    addSpamRule: (input) =>
      change("spam_rule.add", (r) => `spam_rule:${r.id}`, nothing, s.addSpamRule(input), () => input)
  }
}

/**
 * Accounts: create, read, list, suspend, activate.
 */
import { normalizeRecipient, ResourceConflict, validationFailed } from "@tuma/domain"
import { Effect } from "effect"
import type { AccountRow } from "../ports/OperatorStore.js"
import type { AdminContext } from "./context.js"
import { clampLimit, EMAIL } from "./context.js"
import type { AdminService } from "./service.js"
import { accountView, apiKeyView } from "./viewsOf.js"

/** Accounts: create, read, list, suspend, activate. */
export const makeAccounts = (
  ctx: AdminContext
): Pick<AdminService, "createAccount" | "getAccount" | "listAccounts" | "suspendAccount" | "activateAccount"> => {
  const { admin, op, ids, now, account, market, walletsOf, routesOf } = ctx

  function setActive(accountId: string, active: boolean) {
    return Effect.gen(function*() {
      yield* account(accountId)
      yield* op.setAccountActive(accountId, active, yield* now)
      return accountView(yield* account(accountId))
    })
  }

  return {
    createAccount: (input) =>
      Effect.gen(function*() {
        const errors: Record<string, Array<string>> = {}
        const name = typeof input.name === "string" ? input.name.trim() : ""
        const email = typeof input.email === "string" ? input.email.trim() : ""
        if (name === "") errors.name = ["The name field is required."]
        else if (name.length > 200) errors.name = ["The name field must not be greater than 200 characters."]
        if (!EMAIL.test(email)) errors.email = ["The email field must be a valid email address."]
        let phone: string | null = null
        if (input.phone != null && input.phone.trim() !== "") {
          const r = normalizeRecipient(input.phone)
          if (r._tag === "Left") errors.phone = ["The phone field must be a valid phone number in E.164 format."]
          else phone = r.right.e164
        }
        if (Object.keys(errors).length > 0) return yield* validationFailed(errors)
        const country = yield* market(input.country ?? "TZ")
        const at = yield* now
        const row: AccountRow = {
          id: yield* ids.uuidV4,
          name,
          email,
          phone,
          phone_verified_at: input.phone_verified === true && phone !== null ? at : null,
          country_id: country.id,
          active: input.active ?? true,
          created_at: at,
          updated_at: at
        }
        const inserted = yield* admin.insertAccount(row)
        if (!inserted) {
          return yield* new ResourceConflict({
            message: `An account with the e-mail ${email} exists.`,
            resource: "account"
          })
        }
        return accountView(row)
      }),

    getAccount: (accountId) =>
      Effect.gen(function*() {
        const row = yield* account(accountId)
        const at = yield* now
        const [wallets, routes, keys] = yield* Effect.all([
          walletsOf(accountId),
          routesOf(accountId),
          admin.listApiKeys(accountId)
        ], { concurrency: 3 })
        return { account: accountView(row), wallets, routes, api_keys: keys.map((k) => apiKeyView(k, at)) }
      }),

    listAccounts: (input = {}) =>
      Effect.map(
        admin.listAccounts({
          active: input.active,
          search: input.search?.trim() || undefined,
          limit: clampLimit(input.limit, 50, 500),
          offset: Math.max(0, Math.floor(input.offset ?? 0))
        }),
        (rows) => rows.map(accountView)
      ),

    suspendAccount: (accountId) => setActive(accountId, false),
    activateAccount: (accountId) => setActive(accountId, true)
  }
}

/** The console's overview, customer accounts and their credit (top-ups, corrections, ledger). */
import { get, post } from "@effect/platform/HttpApiEndpoint"
import * as Views from "@tuma/core/admin/views"
import { Schema } from "effect"
import { ok, okList } from "../../shared/apiSchemas.js"
import {
  body,
  consoleGroup,
  CountryText,
  needs,
  Num,
  OptionalText,
  query,
  QueryText,
  Text,
  uidAction,
  UidPath
} from "./shared.js"

const AccountData = ok(Views.AccountView, "ConsoleAccountResponse")
export const CreateAccountBody = body({
  name: Text,
  email: Text,
  country: OptionalText,
  phone: OptionalText,
  owner_email: OptionalText
}, "ConsoleCreateAccount")
export const TopUpBody = body({
  country: CountryText,
  units: Num,
  amount: OptionalText,
  currency: OptionalText,
  reference: OptionalText
}, "ConsoleTopUp")
/** A correction: `units` NaN when absent (`Admin` answers 422), `corrects` absent when blank. */
export const CorrectionBody = body(
  { country: CountryText, units: Num, reason: Text, corrects: OptionalText },
  "ConsoleCorrection"
)

export class ConsoleAccountsGroup extends consoleGroup("consoleAccounts", "Console: overview, accounts and credit")
  .add(needs("read")(get("overview", "/overview").addSuccess(ok(Schema.Unknown, "ConsoleOverview"))))
  .add(
    needs("read")(
      get("list", "/accounts").setUrlParams(query({ search: QueryText }))
        .addSuccess(okList(Views.AccountView, "ConsoleAccountList"))
    )
  )
  .add(
    needs("accounts.manage")(
      post("create", "/accounts").setPayload(CreateAccountBody).addSuccess(ok(Schema.Unknown, "ConsoleCreatedAccount"))
    )
  )
  .add(needs("read")(get("get", "/accounts/:uid").setPath(UidPath).addSuccess(ok(Schema.Unknown, "ConsoleAccount"))))
  .add(needs("accounts.manage")(uidAction("suspend", "/accounts/:uid/suspend").addSuccess(AccountData)))
  .add(needs("accounts.manage")(uidAction("activate", "/accounts/:uid/activate").addSuccess(AccountData)))
  .add(
    needs("credit.manage")(
      post("topUp", "/accounts/:uid/top-ups").setPath(UidPath).setPayload(TopUpBody)
        .addSuccess(ok(Schema.Unknown, "ConsoleTopUpResponse"))
    )
  )
  .add(
    needs("credit.manage")(
      post("correct", "/accounts/:uid/corrections").setPath(UidPath).setPayload(CorrectionBody)
        .addSuccess(ok(Schema.Unknown, "ConsoleCorrectionResponse"))
    )
  )
  .add(
    needs("read")(
      get("ledger", "/accounts/:uid/ledger").setPath(UidPath).setUrlParams(query({ country: QueryText }))
        .addSuccess(okList(Views.LedgerEntryView, "ConsoleLedger"))
    )
  )
{}

/** The console's SMPP page: every account's SMPP credentials (the admin API's actions) and the live binds. */
import { del, get, patch, post } from "@effect/platform/HttpApiEndpoint"
import { SmppAccountView, SmppAccountWithPassword, SmppBindView } from "@tuma/core/smpp/views"
import { ok, okList } from "../../shared/apiSchemas.js"
import {
  Anything,
  body,
  ConsoleDone,
  consoleGroup,
  needs,
  OptionalText,
  query,
  QueryText,
  Text,
  uidAction,
  UidPath
} from "./shared.js"

/** New credentials as the console's form sends them. */
export const CreateSmppBody = body({
  account_uid: Text,
  system_id: Text,
  mode: OptionalText,
  rate: Anything,
  burst: Anything,
  max_binds: Anything,
  /** An array, or addresses separated by commas or spaces. */
  allowed_ips: Anything
}, "ConsoleCreateSmppAccount")

/**
 * A change of credentials' limits as the console's edit form sends them (numbers or numeric text; a
 * blank burst: the rate); absent fields are kept, `allowed_ips` blank or empty: any address.
 */
export const ChangeSmppBody = body({
  rate: Anything,
  burst: Anything,
  max_binds: Anything,
  /** An array, or addresses separated by commas or spaces. */
  allowed_ips: Anything
}, "ConsoleChangeSmppAccount")

const Account = ok(SmppAccountView, "ConsoleSmppAccount")
const WithPassword = ok(SmppAccountWithPassword, "ConsoleSmppAccountWithPassword")

export class ConsoleSmppGroup extends consoleGroup("consoleSmpp", "Console: SMPP credentials and live binds")
  .add(
    needs("read")(
      get("smppAccounts", "/smpp-accounts").setUrlParams(query({ account: QueryText }))
        .addSuccess(okList(SmppAccountView, "ConsoleSmppAccounts"))
    )
  )
  .add(
    needs("accounts.manage")(
      post("createSmppAccount", "/smpp-accounts").setPayload(CreateSmppBody).addSuccess(WithPassword)
    )
  )
  .add(
    needs("accounts.manage")(
      patch("changeSmppAccount", "/smpp-accounts/:uid").setPath(UidPath).setPayload(ChangeSmppBody).addSuccess(Account)
    )
  )
  .add(needs("accounts.manage")(uidAction("disableSmppAccount", "/smpp-accounts/:uid/disable").addSuccess(Account)))
  .add(needs("accounts.manage")(uidAction("enableSmppAccount", "/smpp-accounts/:uid/enable").addSuccess(Account)))
  .add(
    needs("accounts.manage")(
      uidAction("rotateSmppPassword", "/smpp-accounts/:uid/rotate-password").addSuccess(WithPassword)
    )
  )
  .add(
    needs("accounts.manage")(del("deleteSmppAccount", "/smpp-accounts/:uid").setPath(UidPath).addSuccess(ConsoleDone))
  )
  .add(
    needs("read")(
      get("smppBinds", "/smpp-binds").setUrlParams(query({ account: QueryText }))
        .addSuccess(okList(SmppBindView, "ConsoleSmppBinds"))
    )
  )
  .add(
    needs("accounts.manage")(
      del("unbindSmppBind", "/smpp-binds/:uid").setPath(UidPath).addSuccess(ok(SmppBindView, "ConsoleSmppBind"))
    )
  )
{}

/**
 * The portal's SMPP page (docs/portal.md "SMPP"): the account's SMPP credentials and live binds, the
 * connection instructions; owners create, change the allowed addresses of, disable, enable, rotate,
 * delete credentials and unbind a bind (members read). The same core use cases as `/admin/v1/smpp-accounts` and `/admin/v1/smpp-binds`,
 * scoped to the session's account.
 */
import { del, get, patch, post } from "@effect/platform/HttpApiEndpoint"
import { SmppAccountView, SmppAccountWithPassword, SmppBindView } from "@tuma/core/smpp/views"
import { StoredString } from "@tuma/domain/storedText"
import { Schema } from "effect"
import { all, create, group, ok } from "../../shared/apiSchemas.js"
import { forMember, forOwner, PortalDone } from "./shared.js"

/** Credentials as the portal shows them (the account is the session's). */
export const PortalSmppAccount = SmppAccountView.omit("account_uid").annotations({ identifier: "PortalSmppAccount" })
export type PortalSmppAccount = typeof PortalSmppAccount.Type

/** Credentials with their password, answered once. */
export const PortalSmppAccountWithPassword = SmppAccountWithPassword.omit("account_uid").annotations({
  identifier: "PortalSmppAccountWithPassword"
})

/** A live bind of the account. */
export const PortalSmppBind = SmppBindView.omit("account_uid").annotations({ identifier: "PortalSmppBind" })
export type PortalSmppBind = typeof PortalSmppBind.Type

/** Where to connect; null when this server offers no SMPP. */
export const SmppConnection = Schema.Struct({
  host: Schema.String,
  /** The plain port; null when only the TLS port is configured. */
  port: Schema.NullOr(Schema.Number),
  tls_port: Schema.NullOr(Schema.Number),
  bind_types: Schema.Array(Schema.String),
  interface_versions: Schema.Array(Schema.String)
}).annotations({ identifier: "PortalSmppConnection" })

/** The SMPP page: connection, credentials, live binds. */
export const PortalSmpp = Schema.Struct({
  connection: Schema.NullOr(SmppConnection),
  accounts: Schema.Array(PortalSmppAccount),
  binds: Schema.Array(PortalSmppBind)
}).annotations({ identifier: "PortalSmpp" })
export type PortalSmpp = typeof PortalSmpp.Type

/**
 * New credentials (the account is the session's). Throughput and `max_binds` are the platform's defaults
 * (50 parts/s, 2 binds): limits are the operator's to grant (admin API, console), not the customer's.
 */
export const CreateSmppInput = Schema.Struct({
  /** At most 15 characters (SMPP 3.4), unique across the platform. */
  system_id: StoredString,
  mode: Schema.optional(Schema.Literal("live", "sandbox")),
  /** Addresses or CIDR blocks a bind may come from; none: any address. */
  allowed_ips: Schema.optional(Schema.Array(StoredString))
}).annotations({ identifier: "PortalCreateSmppAccount", ...all })

/**
 * An owner's change of their credentials: the addresses a bind may come from. Throughput and
 * `max_binds` are the operator's (docs/decisions.md "SMPP limits are the operator's"): named with their
 * present values they change nothing; other values are refused (422), nothing changed.
 */
export const ChangeSmppInput = Schema.Struct({
  /** Addresses or CIDR blocks a bind may come from; empty: any address. */
  allowed_ips: Schema.optional(Schema.Array(StoredString)),
  /** Read-only here: the present value or absent. */
  throughput: Schema.optional(Schema.Struct({ rate: Schema.Number, burst: Schema.optional(Schema.Number) })),
  /** Read-only here: the present value or absent. */
  max_binds: Schema.optional(Schema.Number)
}).annotations({ identifier: "PortalChangeSmppAccount", ...all })

const SmppPath = Schema.Struct({ smpp_account_uid: Schema.String })
const BindPath = Schema.Struct({ smpp_bind_uid: Schema.String })
const AccountResponse = ok(PortalSmppAccount, "PortalSmppAccountResponse")
const PasswordResponse = ok(PortalSmppAccountWithPassword, "PortalSmppAccountWithPasswordResponse")
const smppAction = <const Name extends string>(name: Name, action: string) =>
  post(name, `/smpp-accounts/:smpp_account_uid/${action}`).setPath(SmppPath)

export class PortalSmppGroup extends group("portalSmpp", "Portal: SMPP")
  .add(forMember(get("smpp", "/smpp").addSuccess(ok(PortalSmpp, "PortalSmppResponse"))))
  .add(forOwner(
    create("createSmppAccount", "/smpp-accounts", CreateSmppInput, PasswordResponse),
    "The password (8 characters) is in this answer only."
  ))
  .add(forOwner(
    patch("changeSmppAccount", "/smpp-accounts/:smpp_account_uid").setPath(SmppPath).setPayload(ChangeSmppInput)
      .addSuccess(AccountResponse),
    "Changes the addresses a bind may come from (binds made afterwards are checked against them). " +
      "Throughput and max_binds are the operator's: another value than the present one is refused (422)."
  ))
  .add(forOwner(smppAction("disableSmppAccount", "disable").addSuccess(AccountResponse)))
  .add(forOwner(smppAction("enableSmppAccount", "enable").addSuccess(AccountResponse)))
  .add(forOwner(
    smppAction("rotateSmppPassword", "rotate-password").addSuccess(PasswordResponse),
    "A new password, in this answer only; binds up stay up."
  ))
  .add(forOwner(del("deleteSmppAccount", "/smpp-accounts/:smpp_account_uid").setPath(SmppPath).addSuccess(PortalDone)))
  .add(forOwner(
    del("unbindSmppBind", "/smpp-binds/:smpp_bind_uid").setPath(BindPath)
      .addSuccess(ok(PortalSmppBind, "PortalSmppBindResponse")),
    "Sends `unbind` to the ESME and closes the connection."
  ))
{}

/**
 * `/admin/v1/smpp-accounts` (issue 28): an account's SMPP credentials — create (the password answered
 * once), list, get, change the limits, disable, enable, rotate the password, delete; `/admin/v1/smpp-binds`: the live binds
 * of every process, and unbinding one. Declared here, added to the admin API in admin/Api.ts; handlers
 * in AdminHttp.ts over core's `SmppAccounts` and `SmppLiveBinds`.
 */
import { del, get, patch, post } from "@effect/platform/HttpApiEndpoint"
import * as OpenApi from "@effect/platform/OpenApi"
import { SmppAccountView, SmppAccountWithPassword, SmppBindView } from "@tuma/core/smpp/views"
import { StoredString } from "@tuma/domain/storedText"
import { Schema } from "effect"
import { all, create, done, group, ok, okList } from "../shared/apiSchemas.js"
import { RequireAdmin } from "../shared/Security.js"

const SmppPath = Schema.Struct({ smpp_account_uid: StoredString })
const BindPath = Schema.Struct({ smpp_bind_uid: StoredString })

/** The body of new SMPP credentials. */
export const CreateSmppAccountInput = Schema.Struct({
  account_uid: StoredString,
  /** At most 15 characters (SMPP 3.4), unique across the platform. */
  system_id: StoredString,
  mode: Schema.optional(Schema.Literal("live", "sandbox")),
  /** Parts (segments) per second across all binds, and the burst (default: the rate). */
  throughput: Schema.optional(Schema.Struct({ rate: Schema.Number, burst: Schema.optional(Schema.Number) })),
  max_binds: Schema.optional(Schema.Number),
  /** Addresses or CIDR blocks a bind may come from; none: any address. */
  allowed_ips: Schema.optional(Schema.Array(StoredString))
}).annotations({ identifier: "AdminCreateSmppAccount", ...all })

/** The body of a change of credentials' limits: what is absent is kept. */
export const ChangeSmppAccountInput = Schema.Struct({
  /** Parts per second and the burst (absent burst: the rate). */
  throughput: Schema.optional(Schema.Struct({ rate: Schema.Number, burst: Schema.optional(Schema.Number) })),
  max_binds: Schema.optional(Schema.Number),
  /** Addresses or CIDR blocks a bind may come from; empty: any address. */
  allowed_ips: Schema.optional(Schema.Array(StoredString))
}).annotations({ identifier: "AdminChangeSmppAccount", ...all })

const SmppQuery = Schema.Struct({ account_uid: Schema.optional(StoredString) }).annotations(all)
const SmppResponse = ok(SmppAccountView, "AdminSmppAccountResponse")
const SmppWithPasswordResponse = ok(SmppAccountWithPassword, "AdminSmppAccountWithPasswordResponse")

/** Admin API group: SMPP credentials. */
export class AdminSmpp extends group("adminSmpp", "Admin: SMPP credentials").middleware(RequireAdmin)
  .add(
    create("createSmppAccount", "/smpp-accounts", CreateSmppAccountInput, SmppWithPasswordResponse)
      .annotate(OpenApi.Description, "The password (8 characters) is in the answer once; it is stored hashed.")
  )
  .add(
    get("listSmppAccounts", "/smpp-accounts").setUrlParams(SmppQuery)
      .addSuccess(okList(SmppAccountView, "AdminSmppAccountList"))
  )
  .add(get("getSmppAccount", "/smpp-accounts/:smpp_account_uid").setPath(SmppPath).addSuccess(SmppResponse))
  .add(
    patch("changeSmppAccount", "/smpp-accounts/:smpp_account_uid").setPath(SmppPath)
      .setPayload(ChangeSmppAccountInput)
      .addSuccess(SmppResponse)
      .annotate(
        OpenApi.Description,
        "Changes the throughput, max_binds or allowed_ips, checked as at creation. Binds made afterwards " +
          "get them; binds up keep theirs until they bind again (unbind them to apply at once)."
      )
  )
  .add(
    post("disableSmppAccount", "/smpp-accounts/:smpp_account_uid/disable").setPath(SmppPath)
      .addSuccess(SmppResponse)
      .annotate(OpenApi.Description, "New binds are refused and the binds up are closed (unbind).")
  )
  .add(post("enableSmppAccount", "/smpp-accounts/:smpp_account_uid/enable").setPath(SmppPath).addSuccess(SmppResponse))
  .add(
    post("rotateSmppPassword", "/smpp-accounts/:smpp_account_uid/rotate-password").setPath(SmppPath)
      .addSuccess(SmppWithPasswordResponse)
      .annotate(OpenApi.Description, "A new password, answered once; binds up stay up, new binds need it.")
  )
  .add(del("deleteSmppAccount", "/smpp-accounts/:smpp_account_uid").setPath(SmppPath).addSuccess(done("AdminSmppDone")))
  .add(
    get("listSmppBinds", "/smpp-binds").setUrlParams(SmppQuery)
      .addSuccess(okList(SmppBindView, "AdminSmppBindList"))
      .annotate(
        OpenApi.Description,
        "The binds up in every process (figures as of the owning process's last heartbeat, every 5 s)."
      )
  )
  .add(
    del("unbindSmppBind", "/smpp-binds/:smpp_bind_uid").setPath(BindPath)
      .addSuccess(ok(SmppBindView, "AdminSmppBindResponse"))
      .annotate(
        OpenApi.Description,
        "Asks the process holding the bind to send `unbind` to the ESME and close the connection; answers the " +
          "bind with `unbind_requested_at`. It leaves the list once closed."
      )
  )
{}

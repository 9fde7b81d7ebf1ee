/**
 * The portal's balance, profile and team.
 */
import { del, get, patch, post, put } from "@effect/platform/HttpApiEndpoint"
import * as Views from "@tuma/core/admin/views"
import { StoredString } from "@tuma/domain/storedText"
import { Schema } from "effect"
import { all, create, group, NullTs, NumberFromQuery, ok, okList, opt, Ts } from "../../shared/apiSchemas.js"
import * as Res from "../../shared/Responses.js"
import { TwoFactorEnrolmentView } from "./session.js"
import { forMember, forOwner, Locale, PortalDone, PortalRole, PortalUser } from "./shared.js"
// balance

export const WalletView = Views.WalletView.omit("country_uid").annotations({ identifier: "PortalWallet" })

export const LedgerEntryView = Views.LedgerEntryView.annotations({ identifier: "PortalLedgerEntry" })

export const LedgerQuery = Schema.Struct({
  country: opt(StoredString),
  kind: opt(Schema.Literal("purchase", "debit", "refund", "adjustment")),
  limit: opt(NumberFromQuery)
}).annotations(all)

// profile and team

export const UpdateProfileInput = Schema.Struct({
  name: opt(StoredString),
  locale: opt(Locale),
  time_zone: opt(StoredString)
}).annotations({ identifier: "PortalUpdateProfile", ...all })

export const ChangePasswordInput = Schema.Struct({
  current_password: StoredString,
  new_password: StoredString
}).annotations({ identifier: "PortalChangePassword", ...all })

export const ProfileView = Schema.Struct({
  user: PortalUser,
  account: Res.Profile
}).annotations({ identifier: "PortalProfile" })

export const InvitationView = Schema.Struct({
  uid: Schema.String,
  email: Schema.String,
  role: PortalRole,
  invited_by: Schema.NullOr(Schema.String),
  created_at: Ts,
  expires_at: Ts,
  accepted_at: NullTs
}).annotations({ identifier: "PortalInvitation" })

/**
 * A new invitation and where its mail went: `sent` (the SMTP server took it), `outbox` (no mail
 * server: nothing was sent) or `failed`; `link` is given only when the mail was not sent, for the
 * owner to pass on.
 */
export const CreatedInvitationView = Schema.Struct({
  ...InvitationView.fields,
  mail: Schema.Literal("sent", "outbox", "failed"),
  link: Schema.NullOr(Schema.String)
}).annotations({ identifier: "PortalCreatedInvitation" })

export const TeamView = Schema.Struct({
  members: Schema.Array(PortalUser),
  /** Every user must sign in with a second factor (set by an owner). */
  require_two_factor: Schema.Boolean,
  invitations: Schema.Array(InvitationView)
}).annotations({ identifier: "PortalTeam" })

export const InviteInput = Schema.Struct({
  email: StoredString,
  role: PortalRole
}).annotations({ identifier: "PortalInvite", ...all })

export const ChangeRoleInput = Schema.Struct({ role: PortalRole }).annotations({
  identifier: "PortalChangeRole",
  ...all
})

export const TwoFactorCodeInput = Schema.Struct({ code: StoredString }).annotations({
  identifier: "PortalTwoFactorCode",
  ...all
})
export const PasswordInput = Schema.Struct({ password: StoredString }).annotations({
  identifier: "PortalPasswordConfirm",
  ...all
})
export const RequireTwoFactorInput = Schema.Struct({ require_two_factor: Schema.Boolean }).annotations({
  identifier: "PortalRequireTwoFactor",
  ...all
})
export const RecoveryCodesView = Schema.Struct({ recovery_codes: Schema.Array(Schema.String) }).annotations({
  identifier: "PortalRecoveryCodes"
})
export const TwoFactorStatusView = Schema.Struct({
  enabled: Schema.Boolean,
  required_by_account: Schema.Boolean,
  unused_recovery_codes: Schema.Number
}).annotations({ identifier: "PortalTwoFactorStatus" })

const UserPath = Schema.Struct({ user_uid: Schema.String })
const InvitationPath = Schema.Struct({ invitation_uid: Schema.String })

const UserResponse = ok(PortalUser, "PortalUserResponse")

export class PortalAccountGroup extends group("portalAccount", "Portal: balance, profile and team")
  .add(forMember(get("wallets", "/wallets").addSuccess(okList(WalletView, "PortalWalletList"))))
  .add(forMember(
    get("ledger", "/ledger").setUrlParams(LedgerQuery).addSuccess(okList(LedgerEntryView, "PortalLedger")),
    "Newest first; `kind=purchase` lists the purchases."
  ))
  .add(forMember(get("purchases", "/purchases").addSuccess(okList(LedgerEntryView, "PortalPurchases"))))
  .add(forMember(get("profile", "/profile").addSuccess(ok(ProfileView, "PortalProfileResponse"))))
  .add(forMember(patch("updateProfile", "/profile").setPayload(UpdateProfileInput).addSuccess(UserResponse)))
  .add(forMember(
    post("changePassword", "/profile/password").setPayload(ChangePasswordInput).addSuccess(PortalDone),
    "Ends the user's other sessions."
  ))
  .add(forMember(get("twoFactor", "/profile/two-factor").addSuccess(ok(TwoFactorStatusView, "PortalTwoFactor"))))
  .add(forMember(
    post("startTwoFactor", "/profile/two-factor").addSuccess(ok(TwoFactorEnrolmentView, "PortalTwoFactorEnrolment")),
    "A secret and its otpauth:// address to add to an authenticator app; confirm with a code."
  ))
  .add(forMember(
    post("confirmTwoFactor", "/profile/two-factor/confirm").setPayload(TwoFactorCodeInput)
      .addSuccess(ok(RecoveryCodesView, "PortalTwoFactorConfirmed")),
    "Turns two-factor sign-in on; answers ten recovery codes, shown once."
  ))
  .add(forMember(
    post("disableTwoFactor", "/profile/two-factor/disable").setPayload(PasswordInput).addSuccess(PortalDone),
    "Needs the password; refused (409) while the account requires two-factor sign-in."
  ))
  .add(forMember(
    post("regenerateRecoveryCodes", "/profile/two-factor/recovery-codes")
      .addSuccess(ok(RecoveryCodesView, "PortalRecoveryCodesResponse")),
    "New recovery codes; the old ones stop working."
  ))
  .add(forOwner(
    put("requireTwoFactor", "/team/two-factor").setPayload(RequireTwoFactorInput).addSuccess(PortalDone),
    "Every user of the account signs in with a second factor (those without one enrol at their next sign-in)."
  ))
  .add(forMember(get("team", "/team").addSuccess(ok(TeamView, "PortalTeamResponse"))))
  .add(forOwner(
    create("invite", "/team/invitations", InviteInput, ok(CreatedInvitationView, "PortalInvitationResponse")),
    "E-mails an invitation link (valid 7 days); answers the link when no mail was sent."
  ))
  .add(forOwner(
    del("revokeInvitation", "/team/invitations/:invitation_uid").setPath(InvitationPath).addSuccess(PortalDone)
  ))
  .add(forOwner(
    patch("changeRole", "/team/members/:user_uid").setPath(UserPath).setPayload(ChangeRoleInput)
      .addSuccess(UserResponse),
    "An account keeps at least one owner."
  ))
  .add(forOwner(
    del("removeMember", "/team/members/:user_uid").setPath(UserPath).addSuccess(PortalDone),
    "Ends the user's sessions; an account keeps at least one owner."
  ))
{}

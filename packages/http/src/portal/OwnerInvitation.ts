/**
 * Creating an account (admin API or `tuma accounts create`) invites its owner to the portal: an
 * owner invitation to `owner_email` (default: the account's e-mail), mailed, and answered to the
 * operator (the link too, for when no SMTP server is configured). An address that already has a
 * portal user is not invited again (`null`).
 */
import type { MailNotice } from "@tuma/core"
import { PortalAccess } from "@tuma/core/portal/PortalAccess"
import { Effect } from "effect"

export interface OwnerInvitation {
  readonly email: string
  readonly expires_at: string
  readonly link: string
  /** Where the invitation mail went: `sent` only when the SMTP server took it. */
  readonly mail: MailNotice
}

export const inviteOwner = (accountId: string, email: string, linkBase: string) =>
  Effect.flatMap(
    PortalAccess,
    (access) =>
      access.invite({ accountId, email, role: "owner", invitedBy: null, linkBase }).pipe(
        Effect.map(({ invitation, link, mail }): OwnerInvitation | null => ({
          email: invitation.email,
          expires_at: invitation.expires_at.toISOString(),
          link,
          mail
        })),
        Effect.catchTag("ResourceConflict", () => Effect.succeed(null))
      )
  )

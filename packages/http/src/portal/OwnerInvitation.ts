/**
 * Creating an account (admin API or `tuma accounts create`) invites its owner to the portal: an
 * owner invitation to `owner_email` (default: the account's e-mail), mailed, and answered to the
 * operator (the link too, for when no SMTP server is configured). An address that already has a
 * portal user is not invited again (`null`).
 */
import { PortalAccess } from "@tuma/core/portal/PortalAccess"
import { Effect } from "effect"

export interface OwnerInvitation {
  readonly email: string
  readonly expires_at: string
  readonly link: string
}

export const inviteOwner = (accountId: string, email: string, linkBase: string) =>
  Effect.flatMap(
    PortalAccess,
    (access) =>
      access.invite({ accountId, email, role: "owner", invitedBy: null, linkBase }).pipe(
        Effect.map(({ invitation, link }): OwnerInvitation | null => ({
          email: invitation.email,
          expires_at: invitation.expires_at.toISOString(),
          link
        })),
        Effect.catchTag("ResourceConflict", () => Effect.succeed(null))
      )
  )

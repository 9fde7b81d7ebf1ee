/**
 * Who may use the portal and how: account users with e-mail and password, sessions,
 * lockout, invitations, password resets, the team and the profile. Pure rules over the
 * `PortalStore` port, the `Mailer` port and the `Clock`:
 *
 * - sign-in: a locked e-mail or client address is refused before the password is checked; a
 *   failure counts against both; `lockoutThreshold` failures in `lockoutWindowMs` lock the e-mail
 *   for `lockoutMs`. An unknown e-mail costs the same scrypt time as a wrong password and answers
 *   the same message. Success clears the e-mail's failures and makes a NEW session (random id,
 *   only its SHA-256 stored); any session the client presented is ended (no fixation).
 * - a session ends `sessionIdleMs` after its last use or `sessionAbsoluteMs` after sign-in.
 * - invitations and resets are single-use random tokens (only the SHA-256 stored) mailed as links;
 *   completing a reset ends every session of the user.
 * - an account keeps at least one owner.
 * - two-factor sign-in (`twoFactor.ts`): optional per user, required per account by an owner.
 *
 * The parts: `signIn.ts`, `invitations.ts`, `passwordReset.ts`, `team.ts`, over `context.ts`.
 */
import { Context, Effect, Layer } from "effect"
import type { Audit } from "../audit/Audit.js"
import type { Ids } from "../ports/Ids.js"
import type { Mailer } from "../ports/Notifiers.js"
import type { PortalStore } from "../ports/PortalStore.js"
import { makePortalContext } from "./context.js"
import { invitationOperations } from "./invitations.js"
import { passwordResetOperations } from "./passwordReset.js"
import type { PortalAccessService } from "./service.js"
import { signInOperations } from "./signIn.js"
import { teamOperations } from "./team.js"
import { twoFactorOperations } from "./twoFactor.js"

export * from "./model.js"
export type { PortalAccessService } from "./service.js"

/** The portal's access use cases: sign-in and sessions, lockout, invitations, password resets, team and profile. */
export class PortalAccess extends Context.Tag("@tuma/core/PortalAccess")<PortalAccess, PortalAccessService>() {}

/** `PortalAccess` over its ports: sign-in, invitations, password resets and the team over one shared context. */
export const makePortalAccess = Effect.map(makePortalContext, (ctx): PortalAccessService => ({
  ...signInOperations(ctx),
  ...invitationOperations(ctx),
  ...passwordResetOperations(ctx),
  ...teamOperations(ctx),
  ...twoFactorOperations(ctx)
}))

/** `PortalAccess` as a layer over its ports. */
export const layer: Layer.Layer<PortalAccess, never, PortalStore | Ids | Mailer | Audit> = Layer.effect(
  PortalAccess,
  Effect.map(makePortalAccess, PortalAccess.of)
)

/**
 * Who may use the operator console and how: operator users (separate from the portal's
 * customers), invited by e-mail, signing in with a password and a TOTP code (RFC 6238, the
 * `otpauth` library: SHA-1, 6 digits, 30 s, one step of drift either way), with one-time recovery
 * codes. Pure rules over the `OperatorUserStore` port, the `Mailer` port and the `Clock`:
 *
 * - an operator is created with a role and no password; the invitation link (single use, only its
 *   SHA-256 stored) lets them choose one;
 * - sign-in: a locked e-mail or client address is refused before anything is checked; a wrong
 *   password or a wrong code counts against both; `lockoutThreshold` failures in
 *   `lockoutWindowMs` lock the e-mail for `lockoutMs` (PortalConfig's settings, shared with the
 *   portal). An unknown e-mail costs the same scrypt time as a wrong password;
 * - an operator enrolled in TOTP must give a code (or an unused recovery code, which is then spent);
 *   a TOTP step is accepted once (no replay within its 30 s);
 * - an admin (`totpRequired`) who is not enrolled gets, after a correct password, the secret to
 *   enrol (`EnrolmentRequired`: the secret and its `otpauth://` URI) and no session; the next
 *   sign-in with a code of that secret confirms it, makes the session and answers ten recovery
 *   codes, shown once (stored as SHA-256);
 * - sessions: as the portal's (random id, only its SHA-256 stored, idle and absolute expiry, a CSRF
 *   token per session, any presented session ended at sign-in); a disabled operator's sessions end;
 * - creating an operator, changing a role, disabling and enabling are recorded in the audit log
 *   (`operator.create`, `operator.role`, `operator.disable`, `operator.enable`; target
 *   `operator:<uid>`) with the acting `Actor`, in the change's transaction.
 *
 * The parts: `team.ts` (operators, roles, invitations), `signIn.ts` (sign-in, TOTP, sessions,
 * recovery codes), over `context.ts` (ports and shared steps); views and rules in `model.ts`.
 */
import { Context, Effect, Layer } from "effect"
import type { Audit } from "../audit/Audit.js"
import type { Ids } from "../ports/Ids.js"
import type { Mailer } from "../ports/Notifiers.js"
import type { OperatorUserStore } from "../ports/OperatorUserStore.js"
import { makeOperatorAccessContext } from "./context.js"
import type { OperatorAccessService } from "./service.js"
import { signInOperations } from "./signIn.js"
import { teamOperations } from "./team.js"

export {
  type EnrolmentRequired,
  type OperatorAuthenticated,
  type OperatorClient,
  operatorInvitationLink,
  type OperatorSignedIn,
  type OperatorView,
  operatorView,
  RECOVERY_CODE_COUNT,
  TOTP_ISSUER,
  totpFor
} from "./model.js"
export type { OperatorAccessService } from "./service.js"

/** The operator users' use cases. */
export class OperatorAccess extends Context.Tag("@tuma/core/OperatorAccess")<OperatorAccess, OperatorAccessService>() {}

/** Builds the service over its ports: the team's use cases and sign-in, over one shared context. */
export const makeOperatorAccess = Effect.map(
  makeOperatorAccessContext,
  (ctx): OperatorAccessService => ({ ...teamOperations(ctx), ...signInOperations(ctx) })
)

/** `OperatorAccess` over its ports. */
export const layer: Layer.Layer<OperatorAccess, never, OperatorUserStore | Ids | Mailer | Audit> = Layer.effect(
  OperatorAccess,
  Effect.map(makeOperatorAccess, OperatorAccess.of)
)

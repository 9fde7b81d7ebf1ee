/**
 * `Actor`: who is acting, for the audit log. A `Context.Reference` whose default is the system
 * itself; whoever calls an `Admin` / `Operator` use case on someone's behalf provides it:
 *
 * ```ts
 * admin.approveSenderId(id).pipe(
 *   Effect.provideService(Actor, { kind: "operator", operatorId, name: email, ip })
 * )
 * ```
 *
 * The admin API provides `{ kind: "admin-token", name: "admin-token", ip }`, the `tuma` command
 * `{ kind: "cli", name: "cli:<os user>" }`, the operator console `{ kind: "operator", … }`.
 */
import { Context } from "effect"

/** The kinds of actor: an operator user (console), the admin token (admin API), the CLI, the system. */
export type ActorKind = "operator" | "admin-token" | "cli" | "system"

/** Who performs an operator action, and from where. */
export interface ActorValue {
  readonly kind: ActorKind
  /** The operator user's id (kind `operator`); null otherwise. */
  readonly operatorId: string | null
  /** A display name: the operator's e-mail, `admin-token`, `cli:<os user>`, `system`. */
  readonly name: string
  /** The client address (admin API, console); null for the CLI and the system. */
  readonly ip: string | null
}

/** The actor when nobody provided one: the system itself. */
export const SYSTEM_ACTOR: ActorValue = { kind: "system", operatorId: null, name: "system", ip: null }

/** The actor of the admin token (the admin API); `ip` is the client's address. */
export const adminTokenActor = (ip: string | null): ActorValue => ({
  kind: "admin-token",
  operatorId: null,
  name: "admin-token",
  ip
})

/** The actor of the `tuma` command run by the OS user `user`. */
export const cliActor = (user: string): ActorValue => ({ kind: "cli", operatorId: null, name: `cli:${user}`, ip: null })

/** Who is acting (the audit log's "who" and "from where"); defaults to `SYSTEM_ACTOR`. */
export class Actor extends Context.Reference<Actor>()("@tuma/core/Actor", {
  defaultValue: (): ActorValue => SYSTEM_ACTOR
}) {}

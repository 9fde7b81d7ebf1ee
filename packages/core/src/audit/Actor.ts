/**
 * Who is acting (the shared interface of the audit log, issue 15): whoever calls an Admin/Operator
 * use case on behalf of someone provides it; the default is the system itself.
 */
import { Context } from "effect"

/** The acting party of an operation. */
export interface ActorValue {
  readonly kind: "operator" | "admin-token" | "cli" | "system"
  readonly operatorId: string | null
  readonly name: string
  readonly ip: string | null
}

/** The system acting on its own. */
export const SYSTEM_ACTOR: ActorValue = { kind: "system", operatorId: null, name: "system", ip: null }

/** The acting party, a reference with `SYSTEM_ACTOR` as its default. */
export class Actor extends Context.Reference<Actor>()("@tuma/core/Actor", {
  defaultValue: (): ActorValue => SYSTEM_ACTOR
}) {}

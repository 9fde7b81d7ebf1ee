/**
 * `Operator`: the operator-side operations that set an account up for sending — create an account,
 * issue an API key (the same generator and scope list as `Admin`), record a credit purchase (the same
 * checks and store call as `Admin.purchaseCredits`), verify a route, grant a sender ID (the record
 * `Admin.grantSenderId` writes, upserted: a grant again moves it), add a provider with
 * credit and a route, open a market, record an opt-out or a spam rule. Used by tests, examples, the
 * CLI and (extended) the admin API. Backed by the `OperatorStore` port; ids from `Ids`, time from
 * `Clock`. With an `AuditStore` in the context, every step is recorded in the audit log (for the
 * current `Actor`, in the step's transaction); without one (test fixtures) nothing is recorded.
 */
import { Context, Effect, Layer, Option } from "effect"
import { makeAudit } from "../audit/Audit.js"
import { AuditStore } from "../ports/AuditStore.js"
import { Ids } from "../ports/Ids.js"
import { OperatorStore } from "../ports/OperatorStore.js"
import { withOperatorAuditTrail } from "./operatorAuditTrail.js"
import type { OperatorService } from "./operatorService.js"
import { accountSteps, makeOperatorSteps, platformSteps } from "./operatorSteps.js"

export {
  type ApiKeyMode,
  type NewAccountInput,
  type NewApiKey,
  OperatorError,
  type OperatorService,
  type SenderIdGrant
} from "./operatorService.js"

/**
 * Account set-up as an operator does it (accounts, keys, credit, verified routes, sender IDs, providers,
 * markets, opt-outs, spam rules): for the CLI, tests and embedding backends. `Operator.layer` needs
 * `OperatorStore` and `Ids`.
 */
export class Operator extends Context.Tag("@tuma/core/Operator")<Operator, OperatorService>() {
  /** Needs `OperatorStore` and `Ids`; records in the audit log when an `AuditStore` is provided too. */
  static readonly layer = Layer.effect(
    Operator,
    Effect.gen(function*() {
      const store = yield* OperatorStore
      const steps = makeOperatorSteps(store, yield* Ids)
      const service = Operator.of({ ...accountSteps(steps), ...platformSteps(steps) })
      // recorded in the audit log when an `AuditStore` is present (the server and the CLI provide one)
      const audit = yield* Effect.serviceOption(AuditStore)
      return Option.match(audit, {
        onNone: () => service,
        onSome: (auditStore) => withOperatorAuditTrail(makeAudit(auditStore), store, service)
      })
    })
  )
}

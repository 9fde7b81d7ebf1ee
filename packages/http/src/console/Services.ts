/**
 * The console's services (issue 15), part of the store layer (so the CLI has them too):
 * core's `OperatorAccess` over the SQL `OperatorUserStore` and `SenderIdReview` over `Admin`,
 * both with the portal's `Mailer` choice, `OperatorAccess` recording its changes through `Audit` (TUMA_SMTP_URL) and `PortalConfig` (sessions, lockout,
 * link base).
 */
import { Admin } from "@tuma/core"
import type { Ids } from "@tuma/core"
import type { AuditStore } from "@tuma/core"
import type { OperatorUserStore } from "@tuma/core"
import type { MailOutbox } from "@tuma/core"
import { Audit } from "@tuma/core/audit/Audit"
import * as OperatorAccessModule from "@tuma/core/operators/OperatorAccess"
import * as Review from "@tuma/core/operators/Review"
import { layerMailerFromEnv } from "@tuma/providers"
import { Layer } from "effect"
import type { PortalOptions } from "../portal/Portal.js"
import { layerConfig } from "../portal/Portal.js"

/** `OperatorAccess` and `SenderIdReview`; needs `Admin`, `Ids` and the stores (`SqlStore.layerApi`). */
export const layerServices = (
  options: PortalOptions = {}
): Layer.Layer<
  OperatorAccessModule.OperatorAccess | Review.SenderIdReview,
  never,
  Admin | Ids | OperatorUserStore | AuditStore | MailOutbox
> => {
  const mailer = options.mailer ?? Layer.suspend(() => layerMailerFromEnv())
  return Layer.mergeAll(
    OperatorAccessModule.layer,
    Review.layer
  ).pipe(
    Layer.provide(mailer),
    Layer.provide(layerConfig(options)),
    // operator changes are recorded in the audit log (the same SQL store the server's `Audit` uses)
    Layer.provide(Audit.layer)
  )
}

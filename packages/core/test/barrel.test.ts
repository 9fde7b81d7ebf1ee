import { expect, it } from "@effect/vitest"
import { Observability, Operators, Portal, Ports } from "../src/index.js"
import { TraceSettings } from "../src/observability/Tracing.js"
import { OperatorAccess } from "../src/operators/OperatorAccess.js"
import { SenderIdReview } from "../src/operators/Review.js"
import { PortalAccess } from "../src/portal/PortalAccess.js"
import { PortalConfig } from "../src/portal/PortalConfig.js"
import { OperatorUserStore } from "../src/ports/OperatorUserStore.js"
import { Scrypt } from "../src/ports/Scrypt.js"

it("the barrel's namespaces answer the same services as the modules imported on their own", () => {
  expect(Portal.PortalAccess).toBe(PortalAccess)
  expect(Portal.PortalConfig).toBe(PortalConfig)
  expect(Operators.OperatorAccess.OperatorAccess).toBe(OperatorAccess)
  expect(Operators.Review.SenderIdReview).toBe(SenderIdReview)
  expect(Observability.Tracing.TraceSettings).toBe(TraceSettings)
  expect(Ports.OperatorUserStore.OperatorUserStore).toBe(OperatorUserStore)
  expect(Ports.Scrypt.Scrypt).toBe(Scrypt)
})

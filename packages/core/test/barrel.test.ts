import { expect, it } from "@effect/vitest"
import { DeliveryWriter } from "../src/delivery/DeliveryWriter.js"
import { layerWorkers } from "../src/delivery/Dispatcher.js"
import { layerEventSink } from "../src/delivery/EventSink.js"
import { Delivery, Observability, Operators, Portal, Ports, Webhooks } from "../src/index.js"
import { Metrics } from "../src/observability/index.js"
import * as MetricsModule from "../src/observability/Metrics.js"
import { TraceSettings } from "../src/observability/Tracing.js"
import { OperatorAccess } from "../src/operators/OperatorAccess.js"
import { SenderIdReview } from "../src/operators/Review.js"
import { PortalAccess } from "../src/portal/PortalAccess.js"
import { PortalConfig } from "../src/portal/PortalConfig.js"
import { DispatchStore } from "../src/ports/DispatchStore.js"
import { OperatorUserStore } from "../src/ports/OperatorUserStore.js"
import { Providers } from "../src/ports/Provider.js"
import { Scrypt } from "../src/ports/Scrypt.js"
import { WebhookStore } from "../src/ports/WebhookStore.js"
import { WebhookAdmin } from "../src/webhooks/WebhookAdmin.js"

it("the barrel's namespaces answer the same services as the modules imported on their own", () => {
  expect(Portal.PortalAccess).toBe(PortalAccess)
  expect(Portal.PortalConfig).toBe(PortalConfig)
  expect(Operators.OperatorAccess.OperatorAccess).toBe(OperatorAccess)
  expect(Operators.Review.SenderIdReview).toBe(SenderIdReview)
  expect(Observability.Tracing.TraceSettings).toBe(TraceSettings)
  expect(Observability.Metrics).toBe(Metrics)
  expect(Metrics).toEqual(MetricsModule)
  expect(Ports.OperatorUserStore.OperatorUserStore).toBe(OperatorUserStore)
  expect(Ports.Scrypt.Scrypt).toBe(Scrypt)
  expect(Ports.DispatchStore.DispatchStore).toBe(DispatchStore)
  expect(Ports.Provider.Providers).toBe(Providers)
  expect(Ports.WebhookStore.WebhookStore).toBe(WebhookStore)
  expect(Delivery.DeliveryWriter.DeliveryWriter).toBe(DeliveryWriter)
  expect(Delivery.Dispatcher.layerWorkers).toBe(layerWorkers)
  expect(Delivery.EventSink.layerEventSink).toBe(layerEventSink)
  expect(Webhooks.WebhookAdmin).toBe(WebhookAdmin)
})

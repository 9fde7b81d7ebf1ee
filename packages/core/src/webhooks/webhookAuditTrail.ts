/**
 * The audit trail of `WebhookAdmin`: creating, enabling, disabling an endpoint, regenerating its
 * secret and redelivering events are recorded for the current `Actor` (the admin API's admin
 * token, the `tuma` command, the console). Recorded after the change succeeded, not in its
 * transaction: a redelivery wakes the webhook workers, which must find it committed. Secrets are
 * never recorded (a regenerated secret shows as `"***"`).
 */
import { Effect } from "effect"
import type { AuditService } from "../audit/Audit.js"
import type { WebhookAdminService } from "./webhookAdminService.js"

/** `service` with every change recorded through `audit` once it succeeded. */
export const withWebhookAuditTrail = (audit: AuditService, s: WebhookAdminService): WebhookAdminService => {
  const recorded = <A, E>(
    action: string,
    target: (value: A) => string,
    before: Effect.Effect<unknown, unknown>,
    run: Effect.Effect<A, E>,
    after: (value: A) => unknown
  ): Effect.Effect<A, E> =>
    Effect.gen(function*() {
      const was = yield* Effect.orElseSucceed(before, () => null)
      const value = yield* run
      yield* audit.record(action, target(value), was, after(value))
      return value
    })
  const nothing = Effect.succeed(null)
  const endpointBefore = (id: string) => s.getEndpoint(id)

  // the reads pass through; a method added to `WebhookAdmin` fails the type check here until it is listed
  return {
    getEndpoint: s.getEndpoint,
    listEndpoints: s.listEndpoints,
    listDeliveries: s.listDeliveries,
    getDelivery: s.getDelivery,
    listAttempts: s.listAttempts,
    createEndpoint: (input) =>
      recorded(
        "webhook.create",
        (r) => `webhook:${r.endpoint.id}`,
        nothing,
        s.createEndpoint(input),
        (r) => r.endpoint
      ),
    regenerateSecret: (id) =>
      recorded("webhook.regenerate_secret", () => `webhook:${id}`, nothing, s.regenerateSecret(id), (r) => ({
        secret: r.secret
      })),
    enableEndpoint: (id) =>
      recorded("webhook.enable", () => `webhook:${id}`, endpointBefore(id), s.enableEndpoint(id), (e) => e),
    setEvents: (id, events) =>
      recorded("webhook.set_events", () => `webhook:${id}`, endpointBefore(id), s.setEvents(id, events), (e) => e),
    disableEndpoint: (id, reason) =>
      recorded("webhook.disable", () => `webhook:${id}`, endpointBefore(id), s.disableEndpoint(id, reason), (e) => e),
    redeliver: (deliveryId) =>
      recorded(
        "webhook_delivery.redeliver",
        () => `webhook_delivery:${deliveryId}`,
        nothing,
        s.redeliver(deliveryId),
        (r) => ({ delivery_uid: r.deliveryId })
      ),
    redeliverSince: (id, since) =>
      recorded(
        "webhook.redeliver_since",
        () => `webhook:${id}`,
        nothing,
        s.redeliverSince(id, since),
        (r) => ({ since: since.toISOString(), delivery_uids: r.deliveryIds })
      )
  }
}

/**
 * Metrics and spans of webhook attempts, as a decorator of the `WebhookSender` port:
 * `tuma_webhook_deliveries_total{outcome}` per attempt and, with `TraceSettings.linkMessages`, a
 * `webhook.attempt` span per attempt linked to the request that accepted the message it reports.
 */
import { Effect, Predicate } from "effect"
import { WebhookSender } from "../ports/Notifiers.js"
import * as M from "./Metrics.js"
import { layerObservedBy, linkTo, TraceContextStore } from "./Tracing.js"

const messageIdOf = (body: string): string | undefined => {
  try {
    const parsed: unknown = JSON.parse(body)
    const id = Predicate.hasProperty(parsed, "message_id") ? parsed.message_id : undefined
    return typeof id === "string" ? id : undefined
  } catch {
    return undefined
  }
}

/** The webhook sender, observed: a metric per attempt and, with linked traces, a span linked to the accepting request. */
export const observeWebhookSender = (
  sender: WebhookSender["Type"],
  traces: TraceContextStore["Type"] | undefined
): WebhookSender["Type"] => ({
  send: (request) => {
    const counted = Effect.tap(sender.send(request), (r) => M.webhookOutcomes.update(1, r.outcome))
    if (traces === undefined) return counted
    const messageId = messageIdOf(request.body)
    return Effect.flatMap(
      messageId === undefined ? Effect.succeed(new Map<string, string>()) : traces.load([messageId]),
      (found) => {
        const link = linkTo(messageId === undefined ? undefined : found.get(messageId))
        return counted.pipe(
          Effect.tap((r) =>
            Effect.annotateCurrentSpan({
              "tuma.webhook.outcome": r.outcome,
              "http.response.status_code": r.status ?? 0
            })
          ),
          Effect.withSpan("webhook.attempt", {
            root: true,
            kind: "client",
            links: link === undefined ? [] : [link],
            attributes: {
              "tuma.webhook.event": request.event,
              "tuma.webhook.delivery": request.deliveryId,
              ...(messageId === undefined ? {} : { message_uid: messageId })
            },
            captureStackTrace: false
          }),
          // the workers run with the tracer disabled (their polling is not traced): on for the attempt
          Effect.withTracerEnabled(true)
        )
      }
    )
  }
})

/** The webhook sender of a layer, observed. */
export const layerObservedWebhookSender = layerObservedBy(WebhookSender, observeWebhookSender)

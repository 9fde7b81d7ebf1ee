/** The console's routes of the audit log and webhook deliveries. */
import { Audit } from "@tuma/core/audit/Audit"
import { Effect, Schema } from "effect"
import { OptionalText, param, route, withQuery } from "../Http.js"
import type { ConsoleRoutes } from "./context.js"
import { deliveryStatus, hooks } from "./helpers.js"

/** Registers the routes of the audit log and webhook deliveries. */
export const recordsRoutes = ({ base, on }: ConsoleRoutes) =>
  Effect.gen(function*() {
    // --- audit log ---------------------------------------------------------------------------
    yield* on.get(
      `${base}/audit-log`,
      route(
        "read",
        withQuery(
          Schema.Struct({
            actor: OptionalText,
            action: OptionalText,
            target: OptionalText,
            from: OptionalText,
            to: OptionalText,
            limit: OptionalText,
            before: OptionalText
          }),
          (_, query) => Effect.flatMap(Audit, (audit) => audit.search(query))
        )
      )
    )

    // --- webhook deliveries ------------------------------------------------------------------
    yield* on.get(
      `${base}/webhooks`,
      route(
        "read",
        withQuery(
          Schema.Struct({ account: OptionalText }),
          (_, { account }) => hooks((w) => w.listEndpoints(account === undefined ? {} : { accountId: account }))
        )
      )
    )
    yield* on.get(
      `${base}/webhooks/:uid/deliveries`,
      route(
        "read",
        withQuery(
          Schema.Struct({ status: OptionalText }),
          (ctx, query) =>
            Effect.flatMap(
              query.status === undefined
                ? Effect.succeed({})
                : Effect.map(deliveryStatus(query.status), (status) => ({ status })),
              (filter) => hooks((w) => w.listDeliveries(param(ctx, "uid"), { ...filter, limit: 100 }))
            )
        )
      )
    )
    yield* on.get(
      `${base}/webhook-deliveries/:uid`,
      route("read", (ctx) => hooks((w) => w.getDelivery(param(ctx, "uid"))))
    )
    yield* on.post(
      `${base}/webhook-deliveries/:uid/redeliver`,
      route("webhooks.redeliver", (ctx) => hooks((w) => w.redeliver(param(ctx, "uid"))))
    )
  })

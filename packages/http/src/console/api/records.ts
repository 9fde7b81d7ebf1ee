/** The console's audit log, webhook deliveries and the demo mail outbox. */
import { get } from "@effect/platform/HttpApiEndpoint"
import { Schema } from "effect"
import { ok } from "../../shared/apiSchemas.js"
import { consoleGroup, needs, query, QueryText, uidAction, UidPath } from "./shared.js"

export const AuditQuery = query({
  actor: QueryText,
  action: QueryText,
  target: QueryText,
  from: QueryText,
  to: QueryText,
  limit: QueryText,
  before: QueryText
})

export class ConsoleRecordsGroup extends consoleGroup("consoleRecords", "Console: audit log and webhook deliveries")
  .add(
    needs("read")(
      get("auditLog", "/audit-log").setUrlParams(AuditQuery).addSuccess(ok(Schema.Unknown, "ConsoleAuditLog"))
    )
  )
  .add(
    needs("read")(
      get("webhooks", "/webhooks").setUrlParams(query({ account: QueryText }))
        .addSuccess(ok(Schema.Unknown, "ConsoleWebhooks"))
    )
  )
  .add(
    needs("read")(
      get("deliveries", "/webhooks/:uid/deliveries").setPath(UidPath).setUrlParams(query({ status: QueryText }))
        .addSuccess(ok(Schema.Unknown, "ConsoleWebhookDeliveries"))
    )
  )
  .add(
    needs("read")(
      get("delivery", "/webhook-deliveries/:uid").setPath(UidPath).addSuccess(
        ok(Schema.Unknown, "ConsoleWebhookDelivery")
      )
    )
  )
  .add(
    needs("outbox.read")(
      get("outbox", "/outbox").addSuccess(ok(Schema.Unknown, "ConsoleOutbox"))
    )
  )
  .add(
    needs("webhooks.redeliver")(
      uidAction("redeliver", "/webhook-deliveries/:uid/redeliver").addSuccess(ok(Schema.Unknown, "ConsoleRedelivery"))
    )
  )
{}

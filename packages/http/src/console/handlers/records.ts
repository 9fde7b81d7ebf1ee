/** Handlers of the console's audit log and webhook deliveries. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Audit } from "@tuma/core/audit/Audit"
import { targetNames } from "@tuma/core/audit/TargetNames"
import { readOutbox } from "@tuma/core/operators/Outbox"
import { Effect } from "effect"
import { TumaApi } from "../../Api.js"
import { asOperator } from "../Http.js"
import { deliveryStatus, hooks } from "./helpers.js"

export const ConsoleRecordsLive = HttpApiBuilder.group(TumaApi, "consoleRecords", (handlers) =>
  handlers
    .handle("auditLog", ({ urlParams }) =>
      asOperator(() =>
        Effect.gen(function*() {
          const entries = yield* Effect.flatMap(Audit, (audit) => audit.search(urlParams))
          // readable names of the targets (an account's name, a carrier's, an operator's e-mail)
          const names = yield* targetNames(entries.map((e) => e.target))
          return entries.map((e) => ({ ...e, target_name: e.target === null ? null : names.get(e.target) ?? null }))
        })
      ))
    .handle("webhooks", ({ urlParams: { account } }) =>
      asOperator(() =>
        hooks((w) => w.listEndpoints(account === undefined ? {} : { accountId: account }))
      ))
    .handle("deliveries", ({ path, urlParams }) =>
      asOperator(() =>
        Effect.flatMap(
          urlParams.status === undefined
            ? Effect.succeed({})
            : Effect.map(deliveryStatus(urlParams.status), (status) => ({ status })),
          (filter) => hooks((w) => w.listDeliveries(path.uid, { ...filter, limit: 100 }))
        )
      ))
    .handle("delivery", ({ path }) => asOperator(() => hooks((w) => w.getDelivery(path.uid))))
    .handle("outbox", () =>
      asOperator(() =>
        Effect.map(readOutbox(200), (mails) =>
          mails.map((m) => ({
            uid: m.id,
            to: m.to,
            subject: m.subject,
            text: m.text,
            created_at: m.created_at.toISOString()
          })))
      ))
    .handle("redeliver", ({ path }) => asOperator(() => hooks((w) => w.redeliver(path.uid)))))

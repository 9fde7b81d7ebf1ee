/**
 * The SMPP server's metrics (docs/observability.md): binds up, submits by outcome, receipts pending and
 * delivered, inbound messages delivered, receipts and inbound messages expired, throttled submits, bind
 * failures by reason. Every series whose labels are known is
 * exported at zero from the listener's start (`exportAtZero`): dashboards read 0, not "no data".
 */
import type { BindRefusal } from "@tuma/core"
import { sendErrorCodes } from "@tuma/core"
import { atZero, Labelled } from "@tuma/core/observability/Metrics"
import { SmppStatus } from "@tuma/domain"
import { Metric } from "effect"

/** SMPP binds up in this process (gauge). */
export const bindsUp = Metric.gauge("tuma_smpp_binds_up", { description: "SMPP binds up in this process." })
/**
 * submit_sm / data_sm answered, by outcome (counter): `accepted`, the REST `error_code` of a refusal by
 * the send use case, or the command_status name of a refusal by the session itself (`ESME_RTHROTTLED`,
 * `ESME_RMSGQFUL`, `ESME_RINVDCS`, `ESME_RINVESMCLASS`, `ESME_RINVBNDSTS`, `ESME_RSUBMITFAIL`,
 * `ESME_RSYSERR`).
 */
export const submits = new Labelled(
  Metric.counter("tuma_smpp_submits_total", {
    description: "SMPP submits answered, by outcome (accepted, or the refusal's error code).",
    incremental: true
  }),
  ["outcome"]
)
/** Submits refused with ESME_RTHROTTLED (counter). */
export const throttled = Metric.counter("tuma_smpp_throttled_total", {
  description: "SMPP submits refused with ESME_RTHROTTLED (past the account's throughput).",
  incremental: true
})
/** Binds refused, by reason (counter). */
export const bindFailures = new Labelled(
  Metric.counter("tuma_smpp_bind_failures_total", { description: "SMPP binds refused, by reason.", incremental: true }),
  ["reason"]
)
/** Receipts acknowledged by the ESME (deliver_sm_resp) (counter). */
export const receiptsDelivered = Metric.counter("tuma_smpp_receipts_delivered_total", {
  description: "SMPP delivery receipts acknowledged by the customer (deliver_sm_resp ESME_ROK).",
  incremental: true
})
/** Inbound messages acknowledged by the ESME (deliver_sm_resp of every part) (counter). */
export const inboundDelivered = Metric.counter("tuma_smpp_inbound_delivered_total", {
  description: "Inbound messages delivered to a customer's SMPP bind (every part acknowledged).",
  incremental: true
})
/** Receipts and inbound messages expired: held past the hold with no bind to take them (counter). */
export const outboxExpired = Metric.counter("tuma_smpp_outbox_expired_total", {
  description: "SMPP receipts and inbound messages dropped after the hold (no receiver bind took them).",
  incremental: true
})
/** Receipts stored and not yet acknowledged (gauge, read from the store). */
export const receiptsPending = Metric.gauge("tuma_smpp_receipts_pending", {
  description: "SMPP delivery receipts stored and not yet acknowledged."
})

/** The refusals a session answers itself (before or around the send use case). */
const SESSION_REFUSALS = [
  "ESME_RTHROTTLED",
  "ESME_RMSGQFUL",
  "ESME_RINVDCS",
  "ESME_RINVESMCLASS",
  "ESME_RINVBNDSTS",
  "ESME_RSUBMITFAIL",
  "ESME_RSYSERR"
] as const

const statusNames = new Map<number, string>(Object.entries(SmppStatus).map(([name, code]) => [code, name]))

/** Counts a submit the session refused itself, by its command_status name. */
export const sessionRefused = (status: number) => submits.update(1, statusNames.get(status) ?? "ESME_RSYSERR")

const BIND_REFUSALS: ReadonlyArray<BindRefusal | "max_binds"> = [
  "unknown_system_id",
  "wrong_password",
  "disabled",
  "address_not_allowed",
  "locked",
  "max_binds"
]

/** Every SMPP series at zero (an update by 0 keeps a counter's value; gauges are set by their owners). */
export const exportAtZero = (): void => {
  atZero(submits, [["accepted"], ...sendErrorCodes.map((c) => [c]), ...SESSION_REFUSALS.map((c) => [c])])
  atZero(bindFailures, BIND_REFUSALS.map((r) => [r]))
  throttled.unsafeUpdate(0, [])
  receiptsDelivered.unsafeUpdate(0, [])
  inboundDelivered.unsafeUpdate(0, [])
  outboxExpired.unsafeUpdate(0, [])
}

/**
 * The SMPP server's metrics (docs/observability.md): binds up, submits by outcome, receipts pending and
 * delivered, throttled submits, bind failures by reason.
 */
import { Labelled } from "@tuma/core/observability/Metrics"
import { Metric } from "effect"

/** SMPP binds up in this process (gauge). */
export const bindsUp = Metric.gauge("tuma_smpp_binds_up", { description: "SMPP binds up in this process." })
/** submit_sm / data_sm answered, by outcome: accepted or the command_status name (counter). */
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
/** Receipts stored and not yet acknowledged (gauge, read from the store). */
export const receiptsPending = Metric.gauge("tuma_smpp_receipts_pending", {
  description: "SMPP delivery receipts stored and not yet acknowledged."
})

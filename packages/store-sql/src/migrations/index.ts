/**
 * The migration registry: every migration of the schema, keyed `NNNN_name` (the @effect/sql
 * Migrator's `fromRecord` format). Ranges: 0001–0099 store, 0100–0199 delivery, 0200–0299 webhooks,
 * 0400–0499 portal, 0600–0699 audit log, 0700–0799 this release (send speed,
 * console operators).
 *
 * The Migrator runs only migrations numbered above the newest one a database has, so a new migration
 * is always numbered above every committed one, whatever its range.
 *
 * To add one: create `NNNN_name.ts` in this folder with a default export
 * `Effect<unknown, unknown, SqlClient>` and add one line below. SQL must run on PostgreSQL 15 and on
 * PGlite (Postgres 18). Never edit a migration that has been committed; add a new one.
 */
import type { SqlClient } from "@effect/sql"
import type { Effect } from "effect"
import m0001 from "./0001_schema.js"
import m0002 from "./0002_markets.js"
import m0003 from "./0003_idempotency_json.js"
import m0004 from "./0004_messages_insert_cost.js"
import m0050 from "./0050_operator.js"
import m0060 from "./0060_settings_version.js"
import m0061 from "./0061_message_trace_context.js"
import m0100 from "./0100_delivery.js"
import m0110 from "./0110_dispatch_lean_writes.js"
import m0120 from "./0120_dispatch_workers.js"
import m0200 from "./0200_webhooks.js"
import m0201 from "./0201_webhook_direct_deliveries.js"
import m0202 from "./0202_webhook_lean_indexes.js"
import m0209 from "./0209_webhook_no_private_flag.js"
import m0300 from "./0300_rate_limits.js"
import m0330 from "./0330_receipt_open_refs.js"
import m0340 from "./0340_spam_builtin_switches.js"
import m0400 from "./0400_portal.js"
import m0600 from "./0600_audit_log.js"
import m0700 from "./0700_send_snapshot_version.js"
import m0710 from "./0710_content_counters.js"
import m0720 from "./0720_notify_payloads.js"
import m0730 from "./0730_console_operators.js"
import m0740 from "./0740_ledger_corrections.js"
import m0750 from "./0750_statement_reference_checks.js"
import m0760 from "./0760_webhook_notify.js"
import m0800 from "./0800_contacts.js"
import m0801 from "./0801_templates.js"
import m0810 from "./0810_mail_outbox.js"
import m0811 from "./0811_portal_two_factor.js"
import m0900 from "./0900_smpp.js"
import m0901 from "./0901_smpp_channel.js"
import m0920 from "./0920_smpp_throughput.js"
import m0930 from "./0930_smpp_binds.js"
import m0940 from "./0940_inbound.js"
import m0970 from "./0970_inbox_unread.js"
import m0980 from "./0980_message_counts.js"
import m1000 from "./1000_smpp_inbound.js"
import m1001 from "./1001_smpp_intermediate.js"
import m1002 from "./1002_smpp_bind_failures.js"
import m1020 from "./1020_webhook_test_deliveries.js"
import m1040 from "./1040_message_partitions.js"

export const migrations: Record<string, Effect.Effect<unknown, unknown, SqlClient.SqlClient>> = {
  "0001_schema": m0001,
  "0002_markets": m0002,
  "0003_idempotency_json": m0003,
  "0004_messages_insert_cost": m0004,
  "0050_operator": m0050,
  "0060_settings_version": m0060,
  "0061_message_trace_context": m0061,
  "0100_delivery": m0100,
  "0110_dispatch_lean_writes": m0110,
  "0120_dispatch_workers": m0120,
  "0200_webhooks": m0200,
  "0201_webhook_direct_deliveries": m0201,
  "0202_webhook_lean_indexes": m0202,
  "0209_webhook_no_private_flag": m0209,
  "0300_rate_limits": m0300,
  "0330_receipt_open_refs": m0330,
  "0340_spam_builtin_switches": m0340,
  "0400_portal": m0400,
  "0600_audit_log": m0600,
  "0700_send_snapshot_version": m0700,
  "0710_content_counters": m0710,
  "0720_notify_payloads": m0720,
  "0730_console_operators": m0730,
  "0740_ledger_corrections": m0740,
  "0750_statement_reference_checks": m0750,
  "0760_webhook_notify": m0760,
  "0800_contacts": m0800,
  "0801_templates": m0801,
  "0810_mail_outbox": m0810,
  "0811_portal_two_factor": m0811,
  "0900_smpp": m0900,
  "0901_smpp_channel": m0901,
  "0920_smpp_throughput": m0920,
  "0930_smpp_binds": m0930,
  "0940_inbound": m0940,
  "0970_inbox_unread": m0970,
  "0980_message_counts": m0980,
  "1000_smpp_inbound": m1000,
  "1001_smpp_intermediate": m1001,
  "1002_smpp_bind_failures": m1002,
  "1020_webhook_test_deliveries": m1020,
  "1040_message_partitions": m1040
}

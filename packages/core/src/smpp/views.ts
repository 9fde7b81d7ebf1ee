/**
 * SMPP credentials and live binds as the admin API, the portal and the console answer them (Schemas,
 * node-free: the portal's contract imports them). Never a password hash; a password only in
 * `SmppAccountWithPassword`, answered once.
 */
import { Schema } from "effect"
import type { SmppBindRow } from "../ports/SmppBindStore.js"
import type { SmppAccountRow } from "../ports/SmppStore.js"

/** SMPP credentials as the admin API answers them (never the password or its hash). */
export const SmppAccountView = Schema.Struct({
  uid: Schema.String,
  account_uid: Schema.String,
  system_id: Schema.String,
  mode: Schema.Literal("live", "sandbox"),
  throughput: Schema.Struct({ rate: Schema.Number, burst: Schema.Number }),
  max_binds: Schema.Number,
  allowed_ips: Schema.Array(Schema.String),
  status: Schema.Literal("active", "disabled"),
  created_at: Schema.String,
  updated_at: Schema.String
}).annotations({ identifier: "SmppAccount" })
/** SMPP credentials as answered. */
export type SmppAccountView = typeof SmppAccountView.Type

/** Credentials with their password: answered once, at creation and rotation. */
export const SmppAccountWithPassword = Schema.Struct({ ...SmppAccountView.fields, password: Schema.String })
  .annotations({ identifier: "SmppAccountWithPassword" })
/** Credentials with their password. */
export type SmppAccountWithPassword = typeof SmppAccountWithPassword.Type

/** The admin API's view of stored credentials. */
export const smppAccountView = (row: SmppAccountRow): SmppAccountView => ({
  uid: row.id,
  account_uid: row.account_id,
  system_id: row.system_id,
  mode: row.mode,
  throughput: { rate: row.throughput_rate, burst: row.throughput_burst },
  max_binds: row.max_binds,
  allowed_ips: row.allowed_ips,
  status: row.disabled_at === null ? "active" : "disabled",
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString()
})

/** A live bind: who, from where, since when, and its figures at the last heartbeat. */
export const SmppBindView = Schema.Struct({
  uid: Schema.String,
  smpp_account_uid: Schema.String,
  account_uid: Schema.String,
  system_id: Schema.String,
  bind_type: Schema.Literal("transmitter", "receiver", "transceiver"),
  remote_address: Schema.String,
  since: Schema.String,
  /** Submits received and not answered yet. */
  in_flight: Schema.Number,
  /** Submits per second over the last minute (one decimal). */
  submit_rate: Schema.Number,
  submits_last_minute: Schema.Number,
  /** The owning process's last heartbeat. */
  heartbeat_at: Schema.String,
  /** When an unbind was asked and the bind not yet closed; null otherwise. */
  unbind_requested_at: Schema.NullOr(Schema.String)
}).annotations({ identifier: "SmppBind" })
/** A live bind as answered. */
export type SmppBindView = typeof SmppBindView.Type

/** The view of a stored bind. */
export const smppBindView = (row: SmppBindRow): SmppBindView => ({
  uid: row.id,
  smpp_account_uid: row.smpp_account_id,
  account_uid: row.account_id,
  system_id: row.system_id,
  bind_type: row.bind_type,
  remote_address: row.remote_address,
  since: row.since.toISOString(),
  in_flight: row.in_flight,
  submit_rate: Math.round(row.submits_last_minute / 6) / 10,
  submits_last_minute: row.submits_last_minute,
  heartbeat_at: row.heartbeat_at.toISOString(),
  unbind_requested_at: row.unbind_requested_at?.toISOString() ?? null
})

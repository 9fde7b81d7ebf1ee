/**
 * The account of `pnpm bench:day`, set up through the admin API: allowed to send to TZ as BENCH with
 * units for the whole day, one SMPP provider (the loopback carrier, with credit, the per-bind rate
 * `maxPerSecondPerBind` and, when asked, the cluster-wide `maxPerSecond`) and a live API key, which it answers.
 */
import { admin } from "../smpp/tuma.js"

/** Seeds the account and the SMPP provider on the carrier at `carrier.port`; answers the live key. */
export const seedDay = async (base: string, carrier: {
  readonly port: number
  readonly maxPerSecond: number
  readonly maxPerSecondPerBind: number
}) => {
  const account = await admin(base, "/accounts", {
    name: "Day bench",
    email: `day-bench-${Date.now()}@example.com`,
    phone: "+255700000009",
    country: "TZ",
    phone_verified: true
  })
  const uid = String(account.uid)
  await admin(base, "/purchases", { account_uid: uid, country: "TZ", units: 50_000_000 })
  await admin(base, "/routes", { account_uid: uid, country: "TZ", phone: "+255700000009" })
  await admin(base, "/sender-ids", { account_uid: uid, sender_id: "BENCH", country: "TZ" })
  await admin(base, "/providers", {
    name: "day-carrier",
    kind: "smpp",
    config: {
      host: "127.0.0.1",
      port: carrier.port,
      systemId: "tuma",
      password: "secret",
      window: 100,
      ...(carrier.maxPerSecond > 0 ? { maxPerSecond: carrier.maxPerSecond } : {}),
      ...(carrier.maxPerSecondPerBind > 0 ? { maxPerSecondPerBind: carrier.maxPerSecondPerBind } : {})
    },
    credits: [{ country: "TZ", credit: 50_000_000 }]
  })
  const key = await admin(base, "/api-keys", { account_uid: uid, mode: "live" })
  return String(key.key)
}

/**
 * Handlers of the console's SMPP page over core's `SmppAccounts` and `SmppLiveBinds` (the admin API's use
 * cases, recorded in the audit log with the operator as the actor).
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { SmppAccounts, SmppLiveBinds } from "@tuma/core"
import { Effect } from "effect"
import { TumaApi } from "../../Api.js"
import { asOperator } from "../Http.js"

/** A number field of the form: absent when blank, NaN when not a number (the use case refuses it). */
const numberOf = (v: unknown): number | undefined =>
  v === undefined || v === null || v === "" ? undefined : typeof v === "number" ? v : Number(v)

/** Addresses as an array, from an array or a text separated by commas or spaces. */
const addressesOf = (v: unknown): ReadonlyArray<string> | undefined =>
  Array.isArray(v)
    ? v.map(String)
    : typeof v === "string" && v.trim() !== ""
    ? v.split(/[\s,]+/).filter((s) => s !== "")
    : undefined

/** The throughput of the edit form: none when both are blank (kept); a blank rate with a burst is refused (NaN). */
const throughputOf = (rateField: unknown, burstField: unknown) => {
  const rate = numberOf(rateField)
  const burst = numberOf(burstField)
  return rate !== undefined || burst !== undefined ? { throughput: { rate: rate ?? Number.NaN, burst } } : {}
}

export const ConsoleSmppLive = HttpApiBuilder.group(TumaApi, "consoleSmpp", (handlers) =>
  Effect.gen(function*() {
    const smpp = yield* SmppAccounts
    const binds = yield* SmppLiveBinds
    return handlers
      .handle("smppAccounts", ({ urlParams }) => asOperator(() => smpp.list(urlParams.account)))
      .handle("createSmppAccount", ({ payload }) =>
        asOperator(() => {
          const rate = numberOf(payload.rate)
          const burst = numberOf(payload.burst)
          return smpp.create({
            account_uid: payload.account_uid.trim(),
            system_id: payload.system_id.trim(),
            mode: payload.mode === "sandbox" ? "sandbox" : "live",
            ...(rate !== undefined || burst !== undefined
              ? { throughput: { rate: rate ?? burst ?? Number.NaN, burst } }
              : {}),
            max_binds: numberOf(payload.max_binds),
            allowed_ips: addressesOf(payload.allowed_ips)
          })
        }))
      .handle("changeSmppAccount", ({ path, payload }) =>
        asOperator(() => {
          const max_binds = numberOf(payload.max_binds)
          return smpp.change(path.uid, {
            ...throughputOf(payload.rate, payload.burst),
            ...(max_binds !== undefined ? { max_binds } : {}),
            ...(payload.allowed_ips !== undefined ? { allowed_ips: addressesOf(payload.allowed_ips) ?? [] } : {})
          })
        }))
      .handle("disableSmppAccount", ({ path }) => asOperator(() => smpp.setDisabled(path.uid, true)))
      .handle("enableSmppAccount", ({ path }) => asOperator(() => smpp.setDisabled(path.uid, false)))
      .handle("rotateSmppPassword", ({ path }) => asOperator(() => smpp.rotatePassword(path.uid)))
      .handle("deleteSmppAccount", ({ path }) =>
        asOperator(() => Effect.as(smpp.remove(path.uid), { ok: true as const })))
      .handle("smppBinds", ({ urlParams }) =>
        asOperator(() => binds.list(urlParams.account)))
      .handle("unbindSmppBind", ({ path }) => asOperator(() => binds.unbind(path.uid)))
  }))

/**
 * Handlers of the console's Inbound page over core's `Inbound` (the admin API's use cases, recorded in
 * the audit log with the operator as the actor).
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Inbound } from "@tuma/core"
import { Effect } from "effect"
import { TumaApi } from "../../Api.js"
import { asOperator } from "../Http.js"

/** Aliases as an array of words, from an array or a text separated by commas or spaces. */
export const aliasesOf = (v: unknown): ReadonlyArray<string> | undefined =>
  Array.isArray(v)
    ? v.map(String)
    : typeof v === "string"
    ? v.split(/[\s,]+/).filter((s) => s !== "")
    : undefined

/** A keyword of a change: undefined when not sent, null when blank (the address becomes dedicated). */
const keywordOf = (v: unknown): string | null | undefined =>
  v === undefined ? undefined : typeof v === "string" && v.trim() !== "" ? v.trim() : null

/** A page number of the query ("" or junk: the first). */
const pageOf = (v: string | undefined): number | undefined => {
  const n = v === undefined ? Number.NaN : Number(v)
  return Number.isInteger(n) && n >= 1 ? n : undefined
}

/** The console's inbound handlers: numbers (list, assign, change, remove) and the unrouted messages. */
export const ConsoleInboundLive = HttpApiBuilder.group(TumaApi, "consoleInbound", (handlers) =>
  Effect.gen(function*() {
    const inbound = yield* Inbound
    return handlers
      .handle("inboundNumbers", ({ urlParams }) => asOperator(() => inbound.listNumbers(urlParams.account)))
      .handle("createInboundNumber", ({ payload }) =>
        asOperator(() =>
          inbound.createNumber({
            account_uid: payload.account_uid.trim(),
            number: payload.number.trim(),
            keyword: payload.keyword ?? null,
            aliases: aliasesOf(payload.aliases) ?? []
          })
        ))
      .handle("updateInboundNumber", ({ path, payload }) =>
        asOperator(() => {
          const keyword = keywordOf(payload.keyword)
          const aliases = aliasesOf(payload.aliases)
          return inbound.updateNumber(path.uid, {
            ...(payload.number !== undefined ? { number: payload.number } : {}),
            ...(keyword !== undefined ? { keyword } : {}),
            ...(aliases !== undefined ? { aliases } : {})
          })
        }))
      .handle("deleteInboundNumber", ({ path }) =>
        asOperator(() => Effect.as(inbound.removeNumber(path.uid), { ok: true as const })))
      .handle("unroutedInbound", ({ urlParams }) =>
        asOperator(() =>
          Effect.map(
            inbound.listUnrouted({
              from: urlParams.from,
              to: urlParams.to,
              page: pageOf(urlParams.page),
              per_page: 50
            }),
            (page) => ({ messages: page.data, meta: page.meta })
          )
        ))
  }))

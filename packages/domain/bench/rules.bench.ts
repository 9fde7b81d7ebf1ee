/**
 * `pnpm bench:rules` — per-recipient costs of the domain rules on a 1000-recipient campaign, each
 * against a baseline measured in the same run:
 * - template rendering (compiled once) vs a naive `String.replace` of `{name}` tags
 * - normalizeRecipient vs the bare libphonenumber-js `max` parse + isValid it wraps, and `max` vs `min`
 * - checkSpam (default policy) vs one case-insensitive regex test
 * - idempotencyFingerprint of the campaign body vs JSON.stringify of it
 * - decoding the bulk v2 body (errors: "all") vs JSON.parse of its text
 * Prints medians of 15 runs (after 3 warm-ups) and the ratios.
 */
import { Either, Schema } from "effect"
import { parsePhoneNumberFromString } from "libphonenumber-js/max"
import { parsePhoneNumberFromString as parseMin } from "libphonenumber-js/min"
import {
  BulkSendV2Request,
  checkSpam,
  compileTemplate,
  defaultSpamPolicy,
  idempotencyFingerprint,
  normalizeRecipient,
  renderCompiled
} from "../src/index.js"

const N = 1000
const prefixes = ["+25571", "+25475", "+25677", "+23480", "+4474", "+1415", "+9198", "+8613"]
const numbers = Array.from({ length: N }, (_, i) => {
  const p = prefixes[i % prefixes.length]!
  const rest = String(1_000_000 + i * 7919).padStart(8, "0")
  return p === "+1415"
    ? `+1415555${String(i % 10_000).padStart(4, "0")}`
    : `${p}${rest}`.slice(0, p === "+8613" ? 14 : 13)
})
const recipients = numbers.map((to, i) => ({ to, name: `Customer ${i}`, amount: 1000 + i * 1.25, paid: String(i) }))
const template = "Dear {name}, your balance is {= amount - paid } TZS. Pay by M-Pesa to 123456. Asante!"
const texts = recipients.map((r) =>
  `Dear ${r.name}, your balance is ${r.amount} TZS. See https://tuma.co.tz/p/${r.paid}`
)
const body = { recipients, message: template, sender_id: "TUMA", campaign_name: "March" }
const bodyText = JSON.stringify(body)

const median = (xs: Array<number>) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const time = (f: () => void): number => {
  for (let i = 0; i < 3; i++) f()
  const runs: Array<number> = []
  for (let i = 0; i < 15; i++) {
    const t = performance.now()
    f()
    runs.push(performance.now() - t)
  }
  return median(runs)
}

let sink = 0
const rows: Array<[string, number, string, number]> = []
const compare = (name: string, f: () => void, baseName: string, base: () => void) =>
  rows.push([name, time(f), baseName, time(base)])

const compiled = Either.getOrThrow(compileTemplate(template))
compare(
  "render 1000 (compiled)",
  () => {
    for (const r of recipients) sink += Either.getOrThrow(renderCompiled(compiled, r)).length
  },
  "naive String.replace",
  () => {
    for (const r of recipients) {
      sink += template.replace(/\{(\w+)\}/g, (_, k: string) => String((r as Record<string, unknown>)[k] ?? "")).length
    }
  }
)

compare(
  "normalizeRecipient x1000",
  () => {
    for (const n of numbers) if (Either.isRight(normalizeRecipient(n))) sink++
  },
  "libphonenumber max parse",
  () => {
    for (const n of numbers) if (parsePhoneNumberFromString(n)?.isValid()) sink++
  }
)

compare(
  "libphonenumber max parse x1000",
  () => {
    for (const n of numbers) if (parsePhoneNumberFromString(n)?.isValid()) sink++
  },
  "libphonenumber min parse",
  () => {
    for (const n of numbers) if (parseMin(n)?.isValid()) sink++
  }
)

const scam = /you have won/i
compare(
  "checkSpam x1000",
  () => {
    for (const t of texts) if (Either.isRight(checkSpam(defaultSpamPolicy, t))) sink++
  },
  "one regex test",
  () => {
    for (const t of texts) if (!scam.test(t)) sink++
  }
)

compare(
  "fingerprint (1000-recipient body)",
  () => {
    sink += idempotencyFingerprint("POST /v2/sms/send-bulk", body).length
  },
  "JSON.stringify",
  () => {
    sink += JSON.stringify(body).length
  }
)

const decode = Schema.decodeUnknownEither(BulkSendV2Request, { errors: "all" })
compare(
  "decode BulkSendV2Request (1000)",
  () => {
    if (Either.isRight(decode(body))) sink++
  },
  "JSON.parse of the body",
  () => {
    sink += (JSON.parse(bodyText) as { recipients: Array<unknown> }).recipients.length
  }
)

const valid = numbers.filter((n) => Either.isRight(normalizeRecipient(n))).length
console.log(`domain rules, ${N} recipients (${valid} valid numbers), medians of 15 runs`)
console.log("operation".padEnd(36), "ms".padStart(8), "  baseline".padEnd(28), "ms".padStart(8), "ratio".padStart(8))
for (const [name, ms, baseName, baseMs] of rows) {
  console.log(
    name.padEnd(36),
    ms.toFixed(2).padStart(8),
    "  " + baseName.padEnd(26),
    baseMs.toFixed(2).padStart(8),
    (ms / baseMs).toFixed(2).padStart(8)
  )
}
if (sink === -1) console.log(sink)

// The rows of a generated year of traffic, as CSV for `COPY … FROM STDIN (FORMAT csv)` (bench:year).
//   node year-gen.mjs campaigns|messages N MONTHS ACCOUNTS_JSON MARKET_ID SEED
// ACCOUNTS_JSON: [{ "id": uuid, "share": 0.6 }, …] (shares sum to 1). The first account is the busy one.
// Messages are spread evenly over MONTHS months ending an hour ago, oldest first; 1 in 4 belongs to a
// campaign of 1,000 recipients (campaign ids derived from the same seed, so both passes agree).
// Message ids are uuid v7 of their creation time, so COPY routes them to their month's partition.
// Statuses: 90 % delivered, 7 % failed, 3 % sent; channels 85 % api, 15 % web.
import { createHash } from "node:crypto"

const [kind, nText, monthsText, accountsJson, marketId, seedText] = process.argv.slice(2)
const n = Number(nText)
const months = Number(monthsText)
const accounts = JSON.parse(accountsJson)
const seed = Number(seedText ?? 1)

// a small fast PRNG (mulberry32), deterministic per seed
let state = seed >>> 0
const rand = () => {
  state = (state + 0x6d2b79f5) >>> 0
  let t = state
  t = Math.imul(t ^ (t >>> 15), t | 1)
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}
const hex = (k) => createHash("sha1").update(`${seed}:${k}`).digest("hex")
const uuidOf = (k) => {
  const h = hex(k)
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`
}
// a message id as the application makes it: uuid v7 of its creation time (the monthly partitions are
// ranges of these), the rest from the PRNG
const v7At = (ms) => {
  const t = ms.toString(16).padStart(12, "0")
  const h = (x) => Math.floor(rand() * 2 ** 32).toString(16).padStart(8, "0").slice(0, x)
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-7${h(3)}-a${h(3)}-${h(8)}${h(4)}`
}

const end = Date.now() - 3_600_000
const start = end - months * 30.4 * 86_400_000
const cumulative = []
let acc = 0
for (const a of accounts) cumulative.push((acc += a.share))
const accountAt = (r) => accounts[cumulative.findIndex((c) => r < c)] ?? accounts[accounts.length - 1]
const texts = [
  "Habari! Your order {n} is ready for pickup at our Kariakoo shop.",
  "Your payment of TZS {n} was received. Asante!",
  "Reminder: your appointment is tomorrow at 10:00.",
  "Karibu tena! Show this SMS for 10% off this week.",
  "OTP {n}. Do not share this code."
]
const out = process.stdout
let buffer = ""
const flush = (force) => {
  if (buffer.length > 1 << 20 || (force && buffer.length > 0)) {
    const ok = out.write(buffer)
    buffer = ""
    return ok
  }
  return true
}
const iso = (ms) => new Date(ms).toISOString()

const campaignEvery = 4 // 1 in 4 messages in a campaign
const campaignSize = 1000
// campaign k: its account and creation time come from the message index that opens it
const campaignSlots = Math.ceil(n / (campaignEvery * campaignSize))

const run = async () => {
  if (kind === "campaigns") {
    for (let k = 0; k < campaignSlots; k++) {
      const i = k * campaignEvery * campaignSize
      const t = start + (i / n) * (end - start)
      const a = accounts[k % accounts.length]
      buffer += `${uuidOf(`c${k}`)},${a.id},v2,Campaign ${k},TUMA,queued,${campaignSize},${campaignSize},0,${campaignSize},[],${
        iso(t)
      },${iso(t)}\n`
      if (!flush(false)) await new Promise((r) => out.once("drain", r))
    }
  } else {
    for (let i = 0; i < n; i++) {
      const t = Math.floor(start + (i / n) * (end - start))
      const r = rand()
      const inCampaign = i % campaignEvery === 0
      const k = Math.floor(i / (campaignEvery * campaignSize))
      const a = inCampaign ? accounts[k % accounts.length] : accountAt(rand())
      const s = rand()
      const status = s < 0.9 ? "delivered" : s < 0.96 ? "failed" : s < 0.99 ? "sent" : "failed"
      const channel = r < 0.85 ? "api" : "web"
      const recipient = `+2557${String(10_000_000 + Math.floor(rand() * 200_000)).slice(-8)}`
      const text = texts[i % texts.length].replace("{n}", String(i % 100_000))
      const sent = iso(t + 800)
      const delivered = status === "delivered" ? iso(t + 3_000) : ""
      const failed = status === "failed" ? iso(t + 3_000) : ""
      const reason = status === "failed" ? "Not delivered: the handset was unreachable." : ""
      buffer += `${v7At(t)},${a.id},${inCampaign ? uuidOf(`c${k}`) : ""},${marketId},TZ,${recipient},TUMA,"${text}",GSM-7,1,1,${channel},${status},${
        iso(t)
      },${iso(t)},${status === "queued" ? "" : sent},${delivered},${failed},${reason},${iso(t + 3_000)}\n`
      if (!flush(false)) await new Promise((r) => out.once("drain", r))
    }
  }
  flush(true)
}
run()

// bench:year's measurements against one running server (see year.sh): prints one JSON line.
//   node year-measure.mjs BASE KEY EMAIL PASSWORD UIDS_FILE
// Reads (sequential, REQS each, default 30, after WARM unmeasured rounds; the first request of each list
// after the start reported apart): the message list's first page with each filter, one
// message by uid, a campaign's detail and the dashboard in the portal; acceptance: single sends with
// autocannon (32 connections, ACCEPT_S seconds) and 30 v2 bulk sends of 100 recipients one after another.
import autocannon from "autocannon"
import { readFileSync } from "node:fs"

const [base, key, email, password, uidsFile] = process.argv.slice(2)
const REQS = Number(process.env.REQS ?? 30)
const ACCEPT_S = Number(process.env.ACCEPT_S ?? 8)
const sample = JSON.parse(readFileSync(uidsFile, "utf8"))

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]
}
const timed = async (n, f) => {
  const ms = []
  for (let i = 0; i < n; i++) {
    const t0 = performance.now()
    const r = await f(i)
    if (!r.ok) throw new Error(`${r.status} ${await r.text()}`)
    await r.arrayBuffer()
    ms.push(performance.now() - t0)
  }
  return { p50: +quantile(ms, 0.5).toFixed(1), p99: +quantile(ms, 0.99).toFixed(1) }
}
const api = (path) => fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}` } })

// the portal session (cookie) of the demo owner
const cookiesOf = (r) => r.headers.getSetCookie().map((c) => c.split(";")[0])
const csrf = await fetch(`${base}/portal/api/session/csrf`)
const token = (await csrf.json()).data.csrf_token
const signIn = await fetch(`${base}/portal/api/session`, {
  method: "POST",
  headers: {
    "content-type": "application/json",
    origin: base,
    "x-csrf-token": token,
    cookie: cookiesOf(csrf).join("; ")
  },
  body: JSON.stringify({ email, password })
})
if (!signIn.ok) throw new Error(`portal sign-in ${signIn.status} ${await signIn.text()}`)
const cookie = [...cookiesOf(csrf), ...cookiesOf(signIn)].join("; ")
const portal = (path) => fetch(`${base}/portal/api${path}`, { headers: { cookie } })

const week = new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10)
const lists = {
  "list": "",
  "list status=delivered": "&status=delivered",
  "list status=failed": "&status=failed",
  "list status=sent": "&status=sent",
  "list channel=web": "&channel=web",
  "list from=last week": `&from=${week}`,
  "list status=failed&channel=web": "&status=failed&channel=web"
}
const out = {}
// the server's first requests are reported apart: the first one after the start pays for what every
// later one finds ready (the key's look-up, the list's plan over every partition on that connection,
// the index pages read from disk); then WARM (default 3) unmeasured requests of each read, so the p99
// below is the steady state's and not one cold request of REQS
const coldMs = []
for (const q of Object.values(lists)) {
  const t0 = performance.now()
  const r = await api(`/v1/sms/messages?per_page=50${q}`)
  await r.arrayBuffer()
  coldMs.push(performance.now() - t0)
}
out["first request per list (cold)"] = {
  p50: +quantile(coldMs, 0.5).toFixed(1),
  p99: +Math.max(...coldMs).toFixed(1)
}
const WARM = Number(process.env.WARM ?? 3)
for (let i = 0; i < WARM; i++) {
  for (const q of Object.values(lists)) await (await api(`/v1/sms/messages?per_page=50${q}`)).arrayBuffer()
  await (await api(`/v1/sms/messages/${sample.messages[i % sample.messages.length]}`)).arrayBuffer()
  await (await portal("/dashboard")).arrayBuffer()
  if (sample.campaigns.length > 0) await (await portal(`/campaigns/${sample.campaigns[0]}`)).arrayBuffer()
}
for (const [name, q] of Object.entries(lists)) out[name] = await timed(REQS, () => api(`/v1/sms/messages?per_page=50${q}`))
out["read one"] = await timed(REQS, (i) => api(`/v1/sms/messages/${sample.messages[i % sample.messages.length]}`))
if (sample.campaigns.length > 0) {
  out["campaign detail (portal)"] = await timed(
    REQS,
    (i) => portal(`/campaigns/${sample.campaigns[i % sample.campaigns.length]}`)
  )
}
out["dashboard (portal)"] = await timed(Math.min(REQS, 30), () => portal("/dashboard"))

// acceptance: single sends
let seq = 0
const single = await autocannon({
  url: `${base}/v1/sms/messages`,
  connections: 32,
  duration: ACCEPT_S,
  requests: [{
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    setupRequest: (req) => ({
      ...req,
      body: JSON.stringify({
        recipient: `+2557${String(20_000_000 + (seq++ % 900_000)).slice(-8)}`,
        sender_id: "TUMA",
        body: "A year on"
      })
    })
  }]
})
out["accept single"] = {
  rps: Math.round(single.requests.average),
  p99: single.latency.p99,
  non2xx: single.non2xx
}
out["accept bulk 100"] = await timed(30, (i) =>
  fetch(`${base}/v2/sms/send-bulk`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({
      sender_id: "TUMA",
      message: "Habari {name}",
      recipients: Array.from({ length: 100 }, (_, k) => ({
        to: `+2557${String(30_000_000 + i * 100 + k).slice(-8)}`,
        name: `N${k}`
      }))
    })
  }))
console.log(`YEARJSON ${JSON.stringify(out)}`)

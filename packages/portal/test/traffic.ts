/**
 * A little traffic on a fresh `tuma serve --demo`, so that the pages have rows to show: a webhook
 * endpoint on the demo's live key (its receiver accepts everything), four single sends and a
 * personalised campaign. Used by `pnpm screenshots` and the phone layout's browser tests, with the
 * list of the portal's pages.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import type { Serve } from "./harness.js"
import { ADMIN_TOKEN, http } from "./harness.js"

/** The pages of the portal's navigation: a file name and the path under /portal. */
export const PORTAL_PAGES: ReadonlyArray<readonly [name: string, path: string]> = [
  ["dashboard", "/"],
  ["send-sms", "/send"],
  ["inbox", "/inbox"],
  ["campaigns", "/campaigns"],
  ["contacts", "/contacts"],
  ["templates", "/templates"],
  ["messages", "/messages"],
  ["sender-ids", "/sender-ids"],
  ["api-keys", "/api-keys"],
  ["webhooks", "/webhooks"],
  ["smpp", "/smpp"],
  ["balance", "/balance"],
  ["profile", "/profile"],
  ["team", "/team"]
]

export interface Traffic {
  /** The single sends' message uids, in order. */
  readonly messages: ReadonlyArray<string>
  readonly campaign: string
  /** Stops the webhook receiver. */
  readonly close: () => void
}

export const makeTraffic = async (serve: Serve): Promise<Traffic> => {
  const receiver = createServer((req, res) => {
    req.resume()
    req.on("end", () => res.writeHead(200).end("ok"))
  })
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r))
  const key = serve.liveKey
  const admin = (method: string, path: string, body?: unknown) =>
    http(serve.url, method, `/admin/v1${path}`, { bearer: ADMIN_TOKEN, ...(body !== undefined ? { body } : {}) })
  const accounts = (await admin("GET", "/accounts")).body.data as Array<{ uid: string; email: string }>
  const demo = accounts[0]!
  const keys = (await admin("GET", `/accounts/${demo.uid}/api-keys`)).body.data as Array<any>
  const liveKey = keys.find((k) => k.mode === "live" && k.status === "active")
  await admin("POST", "/webhooks", {
    api_key_uid: liveKey.uid,
    url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/tuma`
  })
  const messages: Array<string> = []
  for (
    const [to, body] of [
      ["+255712345678", "Habari! Your code is 4821"],
      ["+255712345679", "Karibu “Tuma” — ok"],
      ["+255754000001", "Your order 1234 is ready for pickup at Duka Bora, Kariakoo."],
      ["+255754000002", "Malipo yako ya TZS 15,000 yamepokelewa. Asante!"]
    ]
  ) {
    const sent = await http(serve.url, "POST", "/v1/sms/messages", {
      bearer: key,
      body: { recipient: to, sender_id: "TUMA", body }
    })
    messages.push(sent.body.data.uid)
  }
  const campaign = await http(serve.url, "POST", "/v2/sms/send-bulk", {
    bearer: key,
    body: {
      recipients: [
        { to: "+255712000003", name: "Asha", amount: 12000, paid: 2000 },
        { to: "+255712000004", name: "Baraka", amount: 5000, paid: 1500 },
        "+255712000005"
      ],
      message: "Hi {name}, you owe {= amount - paid } TZS",
      sender_id: "TUMA",
      campaign_name: "Madeni Novemba"
    }
  })
  await addressBook(serve, demo.uid, admin)
  await new Promise((r) => setTimeout(r, 3000))
  return {
    messages,
    campaign: campaign.body.data.campaign_uid ?? campaign.body.data.uid,
    close: () => void receiver.close()
  }
}

/**
 * The demo owner's address book, made through the portal API as the browser makes it (the pre-session
 * CSRF cookie, sign-in, the session's token): a group, three contacts (one opted out), a template.
 */
const addressBook = async (
  serve: Serve,
  accountUid: string,
  admin: (method: string, path: string, body?: unknown) => Promise<unknown>
) => {
  const cookies = new Map<string, string>()
  let csrf = ""
  const portal = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${serve.url}/portal/api${path}`, {
      method,
      headers: {
        origin: serve.url,
        cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; "),
        ...(csrf !== "" ? { "x-csrf-token": csrf } : {}),
        ...(body !== undefined ? { "content-type": "application/json" } : {})
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {})
    })
    for (const c of r.headers.getSetCookie()) {
      const [pair] = c.split(";")
      const i = pair.indexOf("=")
      cookies.set(pair.slice(0, i).trim(), pair.slice(i + 1).trim())
    }
    const answer: any = await r.json()
    if (r.status >= 300) throw new Error(`portal ${method} ${path}: ${r.status} ${JSON.stringify(answer)}`)
    return answer
  }
  csrf = (await portal("GET", "/session/csrf")).data.csrf_token
  csrf = (await portal("POST", "/session", { email: serve.login.email, password: serve.login.password })).data
    .csrf_token
  await admin("POST", "/opt-outs", { account_uid: accountUid, recipient: "+255754000013" })
  const group = (await portal("POST", "/contact-groups", { name: "Wateja wa Kariakoo" })).data.uid
  await portal("POST", "/contact-groups", { name: "Wasambazaji" })
  for (
    const [phone, name, fields] of [
      ["0754 000 011", "Asha Mushi", { first_name: "Asha", deni: "12000" }],
      ["0754 000 012", "Baraka Kimaro", { first_name: "Baraka", deni: "5000" }],
      ["0754 000 013", "Juma Said", { first_name: "Juma" }]
    ] as const
  ) {
    await portal("POST", "/contacts", { phone, name, fields, group_uids: [group] })
  }
  await portal("POST", "/templates", {
    name: "Kumbusho la deni",
    body: "Habari {first_name}, deni lako ni TZS {deni}. Asante kwa kulipa kwa wakati."
  })
}

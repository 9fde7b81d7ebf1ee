/**
 * Operator commands of `tuma` (the same services as the admin API), run against the store of
 * DATABASE_URL / TUMA_DATA_DIR. With the embedded database, stop the server first (one process
 * at a time may open it) or use the admin API instead.
 */
import { Operator } from "@tuma/core"
import * as Database from "@tuma/store-sql/Database"
import { Effect, Layer, Redacted } from "effect"
import { parseArgs } from "node:util"
import * as Server from "./Server.js"

export const databaseFromEnv = (): Database.DatabaseConfig => {
  const url = process.env.DATABASE_URL
  return url !== undefined && url !== ""
    ? { _tag: "Postgres", url: Redacted.make(url) }
    : Database.pglite(process.env.TUMA_DATA_DIR ?? Database.DEFAULT_DATA_DIR)
}

type Flags = Record<string, string | boolean | undefined>

interface Command {
  readonly usage: string
  readonly options: Record<string, { type: "string" | "boolean" }>
  readonly run: (flags: Flags, positionals: ReadonlyArray<string>) => Effect.Effect<unknown, unknown, Operator>
}

const req = (flags: Flags, name: string): string => {
  const v = flags[name]
  if (typeof v !== "string" || v === "") throw new Error(`--${name} is required`)
  return v
}
const opt = (flags: Flags, name: string): string | undefined => {
  const v = flags[name]
  return typeof v === "string" && v !== "" ? v : undefined
}
const list = (v: string | undefined) => v === undefined ? undefined : v.split(",").map((s) => s.trim()).filter(Boolean)
const int = (v: string, name: string) => {
  const n = Number(v)
  if (!Number.isInteger(n)) throw new Error(`--${name} must be an integer`)
  return n
}

const op = <A>(f: (o: Operator["Type"]) => Effect.Effect<A, unknown>) => Effect.flatMap(Operator, f)

export const commands: Record<string, Command> = {
  "accounts create": {
    usage: "--name NAME --email EMAIL [--phone +255…] [--country TZ] [--phone-verified]",
    options: {
      name: { type: "string" },
      email: { type: "string" },
      phone: { type: "string" },
      country: { type: "string" },
      "phone-verified": { type: "boolean" }
    },
    run: (f) =>
      op((o) =>
        o.createAccount({
          name: req(f, "name"),
          email: req(f, "email"),
          phone: opt(f, "phone"),
          country: opt(f, "country"),
          phoneVerified: f["phone-verified"] === true
        })
      )
  },
  "accounts suspend": {
    usage: "ACCOUNT_ID",
    options: {},
    run: (_, [id]) => op((o) => Effect.as(o.setAccountActive(id, false), { id, active: false }))
  },
  "accounts activate": {
    usage: "ACCOUNT_ID",
    options: {},
    run: (_, [id]) => op((o) => Effect.as(o.setAccountActive(id, true), { id, active: true }))
  },
  "keys issue": {
    usage: "--account ID [--mode live|test] [--scopes a,b] [--allowed-ips cidr,…] [--expires-at ISO] [--name N]",
    options: {
      account: { type: "string" },
      mode: { type: "string" },
      scopes: { type: "string" },
      "allowed-ips": { type: "string" },
      "expires-at": { type: "string" },
      name: { type: "string" }
    },
    run: (f) =>
      op((o) =>
        o.issueApiKey({
          accountId: req(f, "account"),
          mode: opt(f, "mode") === "test" ? "test" : "live",
          scopes: list(opt(f, "scopes")),
          allowedIps: list(opt(f, "allowed-ips")),
          expiresAt: opt(f, "expires-at") === undefined ? undefined : new Date(req(f, "expires-at")),
          name: opt(f, "name")
        })
      )
  },
  "credits purchase": {
    usage: "--account ID --country TZ --units N [--amount 10.00 --currency TZS --reference R]",
    options: {
      account: { type: "string" },
      country: { type: "string" },
      units: { type: "string" },
      amount: { type: "string" },
      currency: { type: "string" },
      reference: { type: "string" }
    },
    run: (f) =>
      op((o) =>
        o.purchaseCredits({
          accountId: req(f, "account"),
          country: req(f, "country"),
          units: int(req(f, "units"), "units"),
          amount: opt(f, "amount"),
          currency: opt(f, "currency"),
          reference: opt(f, "reference")
        })
      )
  },
  "routes verify": {
    usage: "--account ID --country TZ --phone +255…",
    options: { account: { type: "string" }, country: { type: "string" }, phone: { type: "string" } },
    run: (f) =>
      op((o) =>
        Effect.as(
          o.verifyRoute({ accountId: req(f, "account"), country: req(f, "country"), phone: req(f, "phone") }),
          { verified: true }
        )
      )
  },
  "markets open": {
    usage: "ISO2",
    options: {},
    run: (_, [iso2]) => op((o) => Effect.as(o.setMarketOpen(iso2, true), { country: iso2, open: true }))
  },
  "markets close": {
    usage: "ISO2",
    options: {},
    run: (_, [iso2]) => op((o) => Effect.as(o.setMarketOpen(iso2, false), { country: iso2, open: false }))
  },
  "sender-ids grant": {
    usage: "--account ID --sender-id NAME --country TZ",
    options: { account: { type: "string" }, "sender-id": { type: "string" }, country: { type: "string" } },
    run: (f) =>
      op((o) =>
        o.grantSenderId({ accountId: req(f, "account"), senderId: req(f, "sender-id"), country: req(f, "country") })
      )
  },
  "providers add": {
    usage: "--name NAME [--kind simulated|smpp] --country TZ --credit N",
    options: {
      name: { type: "string" },
      kind: { type: "string" },
      country: { type: "string" },
      credit: { type: "string" }
    },
    run: (f) =>
      op((o) =>
        o.addProvider({
          name: req(f, "name"),
          kind: opt(f, "kind"),
          routes: [{ country: req(f, "country"), credit: int(req(f, "credit"), "credit") }]
        })
      )
  },
  "providers credit": {
    usage: "--provider ID --country TZ --credit N",
    options: { provider: { type: "string" }, country: { type: "string" }, credit: { type: "string" } },
    run: (f) =>
      op((o) =>
        Effect.as(
          o.setProviderCredit({
            providerId: req(f, "provider"),
            country: req(f, "country"),
            credit: int(req(f, "credit"), "credit")
          }),
          { ok: true }
        )
      )
  },
  "opt-outs add": {
    usage: "--account ID --recipient +255… [--reason TEXT]",
    options: { account: { type: "string" }, recipient: { type: "string" }, reason: { type: "string" } },
    run: (f) =>
      op((o) => Effect.as(o.addOptOut(req(f, "account"), req(f, "recipient"), opt(f, "reason")), { opted_out: true }))
  },
  "spam-rules add": {
    usage: "[--account ID] --kind blocked_phrase|blocked_domain --pattern TEXT [--description TEXT]",
    options: {
      account: { type: "string" },
      kind: { type: "string" },
      pattern: { type: "string" },
      description: { type: "string" }
    },
    run: (f) =>
      op((o) =>
        o.addSpamRule({
          accountId: opt(f, "account") ?? null,
          kind: req(f, "kind"),
          pattern: req(f, "pattern"),
          description: opt(f, "description")
        })
      )
  }
}

export const help = () => {
  const lines = [
    "usage: tuma <command> [options]",
    "",
    "  serve [--port N] [--host H] [--data-dir DIR] [--demo]   start the HTTP server",
    ...Object.entries(commands).map(([name, c]) => `  ${name} ${c.usage}`),
    "",
    "Environment: DATABASE_URL (PostgreSQL) or TUMA_DATA_DIR (embedded, default ./.tuma/data), PORT, HOST,",
    "TUMA_ADMIN_TOKEN, TUMA_RATE_LIMIT_PER_MINUTE, TUMA_AUTH_MISSING_SCOPE_STATUS, TUMA_TRUSTED_PROXIES."
  ]
  return lines.join("\n")
}

export const run = async (command: string | undefined, rest: ReadonlyArray<string>) => {
  if (command === undefined || command === "help" || command === "--help" || command === "-h") {
    console.log(help())
    return
  }
  const [sub, ...args] = rest
  const entry = commands[`${command} ${sub ?? ""}`]
  if (entry === undefined) {
    console.error(`unknown command: ${[command, sub].filter(Boolean).join(" ")}\n`)
    console.error(help())
    process.exit(2)
  }
  const { positionals, values } = parseArgs({ args: [...args], options: entry.options, allowPositionals: true })
  const program = entry.run(values as Flags, positionals).pipe(
    Effect.provide(Server.layerStore(databaseFromEnv()).pipe(Layer.orDie))
  )
  const result = await Effect.runPromise(program as Effect.Effect<unknown, unknown>)
  console.log(JSON.stringify(result, null, 2))
}

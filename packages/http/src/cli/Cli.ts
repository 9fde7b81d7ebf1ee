/**
 * Operator commands of `tuma`, over the same services as the admin API (core's `Admin` and
 * `WebhookAdmin`), run against the store of DATABASE_URL / TUMA_DATA_DIR. They print the answer
 * as JSON; failures print the envelope-like error and exit 1. Every change is recorded in the audit
 * log as done by `cli:<os user>`; `tuma audit [--actor --action --target --limit …]` prints the log.
 *
 * With the embedded database only one process may open the data directory: stop the server first,
 * or use the admin API (`/admin/v1`) while it runs.
 *
 * Why one file of ≈430 lines: the table of `tuma` operator commands (one entry each, flags to
 * fields); each command is a few lines over the same services as the admin API.
 */
import * as A from "@tuma/core"
import { Admin, Audit } from "@tuma/core"
import { Actor, cliActor } from "@tuma/core/audit/Actor"
import type { OperatorAccess } from "@tuma/core/operators/OperatorAccess"
import { emailProblem, PortalAccess } from "@tuma/core/portal/PortalAccess"
import { WebhookAdmin } from "@tuma/core/webhooks/WebhookAdmin"
import { validationFailed } from "@tuma/domain/validation"
import { Database } from "@tuma/store-sql"
import { Effect, Layer, Option, Redacted, Schema } from "effect"
import { userInfo } from "node:os"
import { parseArgs } from "node:util"
import { operatorCommands } from "../console/Commands.js"
import { inviteOwner } from "../portal/OwnerInvitation.js"
import * as Server from "../Server.js"

export const databaseFromEnv = (): Database.DatabaseConfig => {
  const url = process.env.DATABASE_URL
  const pool = Number(process.env.DATABASE_POOL_SIZE ?? "")
  return url !== undefined && url !== ""
    ? {
      _tag: "Postgres",
      url: Redacted.make(url),
      maxConnections: Number.isInteger(pool) && pool > 0 ? pool : undefined,
      // statements prepared on each connection unless TUMA_PG_PREPARE=0 (store-sql PgPrepared.ts)
      prepare: process.env.TUMA_PG_PREPARE !== "0"
    }
    : Database.pglite(process.env.TUMA_DATA_DIR ?? Database.DEFAULT_DATA_DIR)
}

type Flags = Record<string, string | boolean | undefined>
type Services = Admin | WebhookAdmin | PortalAccess | Audit | OperatorAccess

/** The OS user running the command: its actions are recorded in the audit log as `cli:<user>`. */
export const osUser = (): string => {
  try {
    return userInfo().username || process.env.USER || "unknown"
  } catch {
    return process.env.USER ?? process.env.USERNAME ?? "unknown"
  }
}

interface Command {
  readonly usage: string
  readonly flags?: ReadonlyArray<string>
  readonly booleans?: ReadonlyArray<string>
  readonly run: (flags: Flags, args: ReadonlyArray<string>) => Effect.Effect<unknown, unknown, Services>
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
const arg = (args: ReadonlyArray<string>, i: number, name: string) => {
  if (args[i] === undefined) throw new Error(`${name} is required`)
  return args[i]
}
const list = (v: string | undefined) =>
  v === undefined ? undefined : v.split(",").map((s) => s.trim()).filter((s) => s !== "")
const num = (v: string | undefined, name: string) => {
  if (v === undefined) return undefined
  const n = Number(v)
  if (!Number.isFinite(n)) throw new Error(`--${name} must be a number`)
  return n
}
/** Flags as an admin input, decoded by its Schema as the admin API decodes a body (absent flags left out). */
const input = <A, I>(schema: Schema.Schema<A, I>, flags: Readonly<Record<string, unknown>>): A =>
  Schema.decodeUnknownSync(schema)(Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined)))

/** What a failed command prints: the failure's message, code and field errors. */
const Failure = Schema.Struct({
  message: Schema.String,
  error_code: Schema.optional(Schema.String),
  errors: Schema.optional(Schema.Unknown)
})

const admin = <A, E>(f: (a: Admin["Type"]) => Effect.Effect<A, E>) => Effect.flatMap(Admin, f)

/** An admin command on one record, named by the first argument (`name` in the usage, then `note`). */
const onRecord = <A, E>(
  name: string,
  run: (a: Admin["Type"], id: string) => Effect.Effect<A, E>,
  note = ""
): Command => ({ usage: name + note, run: (_, args) => admin((x) => run(x, arg(args, 0, name))) })
const hooks = <A, E>(f: (w: WebhookAdmin["Type"]) => Effect.Effect<A, E>) => Effect.flatMap(WebhookAdmin, f)

/** The usage note of the spam-rule commands. */
const ruleNote = " (a stored rule, or a built-in entry: builtin-…)"

export const commands: Record<string, Command> = {
  // `tuma audit [--actor …]` (no sub-command) is `audit log`
  "audit log": {
    usage:
      "[--actor NAME] [--action ACTION|PREFIX.*] [--target TARGET] [--from ISO] [--to ISO] [--limit N] [--before ID]",
    flags: ["actor", "action", "target", "from", "to", "limit", "before"],
    run: (f) =>
      Effect.flatMap(Audit, (audit) =>
        audit.page({
          actor: opt(f, "actor"),
          action: opt(f, "action"),
          target: opt(f, "target"),
          from: opt(f, "from"),
          to: opt(f, "to"),
          limit: opt(f, "limit"),
          before: opt(f, "before")
        }))
  },
  "accounts create": {
    usage: "--name NAME --email EMAIL [--owner-email EMAIL] [--phone +255…] [--country TZ] [--phone-verified]",
    flags: ["name", "email", "owner-email", "phone", "country"],
    booleans: ["phone-verified"],
    run: (f) =>
      Effect.gen(function*() {
        const ownerEmail = opt(f, "owner-email") ?? req(f, "email")
        const problem = emailProblem(ownerEmail)
        if (problem !== undefined) return yield* validationFailed({ owner_email: [problem] })
        const account = yield* admin((a) =>
          a.createAccount(input(A.CreateAccountInput, {
            name: req(f, "name"),
            email: req(f, "email"),
            phone: opt(f, "phone"),
            country: opt(f, "country"),
            phone_verified: f["phone-verified"] === true ? true : undefined
          }))
        )
        // the owner's portal invitation (mailed through TUMA_SMTP_URL; the link is printed too)
        const base = process.env.TUMA_PUBLIC_URL || `http://127.0.0.1:${process.env.PORT || "3000"}`
        return { ...account, owner_invitation: yield* inviteOwner(account.uid, ownerEmail, base) }
      })
  },
  "accounts list": {
    usage: "[--search TEXT]",
    flags: ["search"],
    run: (f) => admin((a) => a.listAccounts(input(A.ListAccountsInput, { search: opt(f, "search") })))
  },
  "accounts show": onRecord("ACCOUNT_UID", (x, id) => x.getAccount(id)),
  "accounts suspend": onRecord("ACCOUNT_UID", (x, id) => x.suspendAccount(id)),
  "accounts activate": onRecord("ACCOUNT_UID", (x, id) => x.activateAccount(id)),
  "keys issue": {
    usage: "--account UID [--mode live|test] [--name N] [--scopes a,b] [--allowed-ips cidr,…] [--expires-at ISO]",
    flags: ["account", "mode", "name", "scopes", "allowed-ips", "expires-at"],
    run: (f) =>
      admin((a) =>
        a.issueApiKey(input(A.IssueApiKeyInput, {
          account_uid: req(f, "account"),
          mode: opt(f, "mode"),
          name: opt(f, "name"),
          scopes: list(opt(f, "scopes")),
          allowed_ips: list(opt(f, "allowed-ips")),
          expires_at: opt(f, "expires-at")
        }))
      )
  },
  "keys list": onRecord("ACCOUNT_UID", (x, id) => x.listApiKeys(id)),
  "keys update": {
    usage: "KEY_UID [--name N] [--scopes a,b] [--allowed-ips cidr,…] [--expires-at ISO|none]",
    flags: ["name", "scopes", "allowed-ips", "expires-at"],
    run: (f, a) =>
      admin((x) =>
        x.updateApiKey(
          arg(a, 0, "KEY_UID"),
          input(A.UpdateApiKeyInput, {
            name: opt(f, "name"),
            scopes: list(opt(f, "scopes")),
            allowed_ips: f["allowed-ips"] === undefined ? undefined : list(opt(f, "allowed-ips")) ?? [],
            expires_at: opt(f, "expires-at") === "none" ? null : opt(f, "expires-at")
          })
        )
      )
  },
  "keys revoke": onRecord("KEY_UID", (x, id) => x.revokeApiKey(id)),
  "credits purchase": {
    usage: "--account UID --country TZ --units N [--amount 10.00 --currency TZS --reference R]",
    flags: ["account", "country", "units", "amount", "currency", "reference"],
    run: (f) =>
      admin((a) =>
        a.purchaseCredits(input(A.PurchaseInput, {
          account_uid: req(f, "account"),
          country: req(f, "country"),
          units: num(req(f, "units"), "units"),
          amount: opt(f, "amount"),
          currency: opt(f, "currency"),
          reference: opt(f, "reference")
        }))
      )
  },
  "credits correct": {
    usage: "--account UID --country TZ --units=-N --reason R [--corrects LEDGER_ENTRY_ID]",
    flags: ["account", "country", "units", "reason", "corrects"],
    run: (f) =>
      admin((a) =>
        a.correctCredits(input(A.CorrectionInput, {
          account_uid: req(f, "account"),
          country: req(f, "country"),
          units: num(req(f, "units"), "units"),
          reason: req(f, "reason"),
          corrects: opt(f, "corrects")
        }))
      )
  },
  "wallets list": onRecord("ACCOUNT_UID", (x, id) => x.listWallets(id)),
  "routes verify": {
    usage: "--account UID --country TZ --phone +255…",
    flags: ["account", "country", "phone"],
    run: (f) =>
      admin((a) =>
        a.verifyRoute({ account_uid: req(f, "account"), country: req(f, "country"), phone: req(f, "phone") })
      )
  },
  "routes list": onRecord("ACCOUNT_UID", (x, id) => x.listRoutes(id)),
  "markets list": { usage: "", run: () => admin((a) => a.listMarkets) },
  "markets open": onRecord("ISO2", (x, id) => x.setMarketOpen(id, true)),
  "markets close": onRecord("ISO2", (x, id) => x.setMarketOpen(id, false)),
  "sender-ids list": {
    usage: "[--account UID] [--status pending|approved|rejected|suspended]",
    flags: ["account", "status"],
    run: (f) =>
      admin((a) =>
        a.listSenderIds(input(A.ListSenderIdsInput, { account_uid: opt(f, "account"), status: opt(f, "status") }))
      )
  },
  "sender-ids show": onRecord("SENDER_ID_UID", (x, id) => x.getSenderId(id)),
  "sender-ids grant": {
    usage: "--account UID --sender-id NAME --country TZ [--default] [--global]",
    flags: ["account", "sender-id", "country"],
    booleans: ["default", "global"],
    run: (f) =>
      admin((a) =>
        a.grantSenderId(input(A.GrantSenderIdInput, {
          account_uid: req(f, "account"),
          sender_id: req(f, "sender-id"),
          country: req(f, "country"),
          is_default: f.default === true ? true : undefined,
          is_global: f.global === true ? true : undefined
        }))
      )
  },
  "sender-ids approve": onRecord("SENDER_ID_UID", (x, id) => x.approveSenderId(id)),
  "sender-ids reject": {
    usage: "SENDER_ID_UID --reason TEXT",
    flags: ["reason"],
    run: (f, a) => admin((x) => x.rejectSenderId(arg(a, 0, "SENDER_ID_UID"), req(f, "reason")))
  },
  "sender-ids suspend": {
    usage: "SENDER_ID_UID [--reason TEXT]",
    flags: ["reason"],
    run: (f, a) => admin((x) => x.suspendSenderId(arg(a, 0, "SENDER_ID_UID"), opt(f, "reason") ?? null))
  },
  "sender-ids reinstate": onRecord("SENDER_ID_UID", (x, id) => x.reinstateSenderId(id)),
  "requirements add": {
    usage: "--name NAME [--required] [--formats pdf,png] [--max-size-kb N] [--country TZ]",
    flags: ["name", "formats", "max-size-kb", "country"],
    booleans: ["required"],
    run: (f) =>
      admin((a) =>
        a.createRequirement(input(A.CreateRequirementInput, {
          name: req(f, "name"),
          is_required: f.required === true,
          accepted_formats: list(opt(f, "formats")),
          max_size_kb: num(opt(f, "max-size-kb"), "max-size-kb"),
          country: opt(f, "country")
        }))
      )
  },
  "requirements list": { usage: "", run: () => admin((a) => a.listRequirements()) },
  "requirements remove": onRecord("REQUIREMENT_UID", (x, id) => x.deleteRequirement(id)),
  "opt-outs add": {
    usage: "--account UID --recipient +255… [--reason TEXT]",
    flags: ["account", "recipient", "reason"],
    run: (f) =>
      admin((a) =>
        a.addOptOut(
          input(A.OptOutInput, {
            account_uid: req(f, "account"),
            recipient: req(f, "recipient"),
            reason: opt(f, "reason")
          })
        )
      )
  },
  "opt-outs list": onRecord("ACCOUNT_UID", (x, id) => x.listOptOuts(id)),
  "opt-outs remove": {
    usage: "ACCOUNT_UID RECIPIENT",
    run: (_, a) => admin((x) => x.removeOptOut(arg(a, 0, "ACCOUNT_UID"), arg(a, 1, "RECIPIENT")))
  },
  "spam-rules add": {
    usage: "[--account UID] --kind blocked_phrase|blocked_domain --pattern TEXT [--description TEXT]",
    flags: ["account", "kind", "pattern", "description"],
    run: (f) =>
      admin((a) =>
        a.addSpamRule(input(A.SpamRuleInput, {
          account_uid: opt(f, "account") ?? null,
          kind: req(f, "kind"),
          pattern: req(f, "pattern"),
          description: opt(f, "description")
        }))
      )
  },
  "spam-rules list": { usage: "", run: () => admin((a) => a.listSpamRules()) },
  "spam-rules remove": onRecord("RULE_UID", (x, id) => x.removeSpamRule(id)),
  "spam-rules enable": onRecord("RULE_UID", (x, id) => x.setSpamRuleEnabled(id, true), ruleNote),
  "spam-rules disable": onRecord("RULE_UID", (x, id) => x.setSpamRuleEnabled(id, false), ruleNote),
  "providers add": {
    usage: "--name NAME [--kind simulated|smpp] [--config JSON] --country TZ --credit N",
    flags: ["name", "kind", "config", "country", "credit"],
    run: (f) =>
      admin((a) =>
        a.createProvider(input(A.CreateProviderInput, {
          name: req(f, "name"),
          kind: opt(f, "kind"),
          config: opt(f, "config") === undefined ? undefined : JSON.parse(req(f, "config")),
          credits: [{ country: req(f, "country"), credit: num(req(f, "credit"), "credit")! }]
        }))
      )
  },
  "providers list": { usage: "", run: () => admin((a) => a.listProviders) },
  "providers credit": {
    usage: "PROVIDER_UID --country TZ --units N [--add]",
    flags: ["country", "units"],
    booleans: ["add"],
    run: (f, a) =>
      admin((x) =>
        x.creditProvider(arg(a, 0, "PROVIDER_UID"), {
          country: req(f, "country"),
          units: num(req(f, "units"), "units")!,
          operation: f.add === true ? "add" : "set"
        })
      )
  },
  "providers enable": onRecord("PROVIDER_UID", (x, id) => x.setProviderEnabled(id, true)),
  "providers disable": {
    usage: "PROVIDER_UID [--confirm-no-route]   (the last carrier of an open market only with --confirm-no-route)",
    booleans: ["confirm-no-route"],
    run: (f, a) =>
      admin((x) =>
        x.setProviderEnabled(arg(a, 0, "PROVIDER_UID"), false, { confirmNoRoute: f["confirm-no-route"] === true })
      )
  },
  "webhooks create": {
    usage: "--key KEY_UID --url https://…   (private addresses only through TUMA_WEBHOOK_ALLOW)",
    flags: ["key", "url"],
    run: (f) => hooks((w) => w.createEndpoint({ apiKeyId: req(f, "key"), url: req(f, "url") }))
  },
  "webhooks list": {
    usage: "[--account UID] [--key KEY_UID]",
    flags: ["account", "key"],
    run: (f) => hooks((w) => w.listEndpoints({ accountId: opt(f, "account"), apiKeyId: opt(f, "key") }))
  },
  "webhooks regenerate": {
    usage: "WEBHOOK_UID",
    run: (_, a) => hooks((w) => w.regenerateSecret(arg(a, 0, "WEBHOOK_UID")))
  },
  "webhooks enable": { usage: "WEBHOOK_UID", run: (_, a) => hooks((w) => w.enableEndpoint(arg(a, 0, "WEBHOOK_UID"))) },
  "webhooks disable": {
    usage: "WEBHOOK_UID [--reason TEXT]",
    flags: ["reason"],
    run: (f, a) => hooks((w) => w.disableEndpoint(arg(a, 0, "WEBHOOK_UID"), opt(f, "reason")))
  },
  ...operatorCommands
}

export const help = () =>
  [
    "usage: tuma <command> [options]",
    "",
    "  serve [--port N] [--host H] [--data-dir DIR] [--demo [--demo-webhook URL]]",
    "        [--webhook-signature-header NAME] [--metrics-port N] [--smpp-port N [--smpp-host H]]",
    "        [--workers N|auto]                                HTTP server (+ delivery and webhook workers);",
    "                                                          --workers: N processes on one port (PostgreSQL)",
    "  worker [--data-dir DIR] [--webhook-signature-header NAME] [--metrics-port N]",
    "                                                          delivery (with inbound) and webhook workers only",
    ...Object.entries(commands).map(([name, c]) => `  ${name} ${c.usage}`),
    "",
    "Environment: DATABASE_URL (PostgreSQL) or TUMA_DATA_DIR (embedded, default ./.tuma/data), PORT, HOST,",
    "TUMA_ADMIN_TOKEN, TUMA_RATE_LIMIT_PER_MINUTE, TUMA_AUTH_MISSING_SCOPE_STATUS, TUMA_TRUSTED_PROXIES,",
    "TUMA_AUTH_CACHE_MS, TUMA_WORKERS=0. See docs/operations.md."
  ].join("\n")

export const run = async (command: string | undefined, rest: ReadonlyArray<string>) => {
  if (command === undefined || command === "help" || command === "--help" || command === "-h") {
    console.log(help())
    return
  }
  const [sub, ...args] = command === "audit" && (rest[0] === undefined || rest[0].startsWith("-"))
    ? ["log", ...rest]
    : rest
  const entry = commands[`${command} ${sub ?? ""}`]
  if (entry === undefined) {
    console.error(`unknown command: ${[command, sub].filter(Boolean).join(" ")}\n`)
    console.error(help())
    process.exit(2)
  }
  const options: Record<string, { type: "string" | "boolean" }> = {}
  for (const f of entry.flags ?? []) options[f] = { type: "string" }
  for (const f of entry.booleans ?? []) options[f] = { type: "boolean" }
  const { positionals, values } = parseArgs({ args: [...args], options, allowPositionals: true })
  const program = Effect.suspend(() => entry.run(values, positionals)).pipe(
    // every change is recorded in the audit log as done by `cli:<os user>`
    Effect.provideService(Actor, cliActor(osUser())),
    Effect.provide(Server.layerStore(databaseFromEnv()).pipe(Layer.orDie))
  )
  const exit = await Effect.runPromiseExit(program)
  if (exit._tag === "Success") {
    console.log(JSON.stringify(exit.value, null, 2))
    return
  }
  const failure = exit.cause._tag === "Fail" ? Schema.decodeUnknownOption(Failure)(exit.cause.error) : Option.none()
  console.error(
    Option.isSome(failure)
      ? JSON.stringify(
        {
          success: false,
          message: failure.value.message,
          error_code: failure.value.error_code,
          errors: failure.value.errors
        },
        null,
        2
      )
      : String(exit.cause)
  )
  process.exit(1)
}

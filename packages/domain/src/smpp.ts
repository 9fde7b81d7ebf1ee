/**
 * The rules of the SMPP server for customers (issue 28, docs/smpp.md): what valid credentials are, the
 * password, the command_status each send refusal is answered with, the delivery receipt's text and
 * the token bucket that counts parts. Pure: no sockets, no store.
 */
import * as Cidr from "./cidr.js"
import { randomBytes } from "./crypto.js"
import { say } from "./messages.js"

/** SMPP 3.4 §5.2.1: system_id is a C-octet string of at most 16 octets (15 characters + NUL). */
export const SMPP_SYSTEM_ID_MAX = 15
/** SMPP 3.4 §5.2.2: password at most 9 octets (8 characters + NUL). */
export const SMPP_PASSWORD_LENGTH = 8

/** The mode of SMPP credentials: `sandbox` sends as a sandbox API key does (decisions §12). */
export type SmppMode = "live" | "sandbox"

/** What an operator gives for new SMPP credentials (the admin API's body, already decoded). */
export interface SmppAccountInput {
  readonly system_id: string
  readonly mode?: SmppMode | undefined
  /** Parts (segments) per second, and the burst the bucket holds (default: the rate). */
  readonly throughput?: { readonly rate: number; readonly burst?: number | undefined } | undefined
  readonly max_binds?: number | undefined
  readonly allowed_ips?: ReadonlyArray<string> | undefined
}

/** The credentials' settings with the defaults applied. */
export interface SmppAccountSettings {
  readonly system_id: string
  readonly mode: SmppMode
  readonly rate: number
  readonly burst: number
  readonly max_binds: number
  readonly allowed_ips: ReadonlyArray<string>
}

/** Defaults of new credentials: 50 parts/s, burst = rate, 2 binds. */
export const SMPP_DEFAULTS = { rate: 50, maxBinds: 2 } as const

/** The bounds of credentials' limits: parts per second, the burst, the binds at once. */
export const SMPP_BOUNDS = { rate: { min: 1, max: 10_000 }, burstMax: 100_000, binds: { min: 1, max: 100 } } as const

const SYSTEM_ID = /^[A-Za-z0-9_.-]+$/
const intIn = (n: number, min: number, max: number) => Number.isInteger(n) && n >= min && n <= max

/** The settings of valid input, or the problems per field (admin API field names). */
export const smppAccountSettings = (
  input: SmppAccountInput
): { readonly ok: SmppAccountSettings } | { readonly problems: Record<string, Array<string>> } => {
  const problems: Record<string, Array<string>> = {}
  const add = (field: string, message: string) => (problems[field] ??= []).push(message)
  const systemId = input.system_id
  if (systemId.length === 0 || systemId.length > SMPP_SYSTEM_ID_MAX) {
    add("system_id", say("smpp.system_id_length", { max: SMPP_SYSTEM_ID_MAX }))
  } else if (!SYSTEM_ID.test(systemId)) {
    add("system_id", say("smpp.system_id_characters"))
  }
  const rate = input.throughput?.rate ?? SMPP_DEFAULTS.rate
  const burst = input.throughput?.burst ?? rate
  const { binds, burstMax } = SMPP_BOUNDS
  const rateOk = intIn(rate, SMPP_BOUNDS.rate.min, SMPP_BOUNDS.rate.max)
  if (!rateOk) add("throughput.rate", say("smpp.rate", SMPP_BOUNDS.rate))
  // below a rate that is itself refused, the burst is not said wrong: the rate is
  if (!intIn(burst, 1, burstMax) || (rateOk && burst < rate)) {
    add("throughput.burst", say("smpp.burst", { max: burstMax }))
  }
  const maxBinds = input.max_binds ?? SMPP_DEFAULTS.maxBinds
  if (!intIn(maxBinds, binds.min, binds.max)) add("max_binds", say("smpp.max_binds", binds))
  const allowed = input.allowed_ips ?? []
  allowed.forEach((block, i) => {
    if (Cidr.parseBlock(block) === undefined) add(`allowed_ips.${i}`, say("smpp.address", { address: block }))
  })
  if (Object.keys(problems).length > 0) return { problems }
  return {
    ok: { system_id: systemId, mode: input.mode ?? "live", rate, burst, max_binds: maxBinds, allowed_ips: allowed }
  }
}

/** Credentials' limits as stored: what an owner's change is compared with. */
export interface SmppLimits {
  readonly rate: number
  readonly burst: number
  readonly max_binds: number
}

/**
 * What an account's owner may change of their credentials (docs/decisions.md "SMPP limits are the
 * operator's"): the addresses a bind may come from, not the throughput nor the number of binds — those
 * are the operator's grant, read-only to the customer. A change that names them with the values they
 * have (a form sending everything back) is no change; any other value is a problem on that field.
 */
export const smppOwnerChangeProblems = (
  current: SmppLimits,
  change: Pick<SmppAccountInput, "throughput" | "max_binds">
): Record<string, Array<string>> | undefined => {
  const problems: Record<string, Array<string>> = {}
  const t = change.throughput
  if (t !== undefined && (t.rate !== current.rate || (t.burst !== undefined && t.burst !== current.burst))) {
    problems.throughput = [say("smpp.limits_by_provider")]
  }
  if (change.max_binds !== undefined && change.max_binds !== current.max_binds) {
    problems.max_binds = [say("smpp.limits_by_provider")]
  }
  return Object.keys(problems).length > 0 ? problems : undefined
}

/** Letters and digits without the look-alikes 0/O, 1/l/I: what an operator reads out or types. */
const PASSWORD_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789"

/** A new random password of exactly 8 characters (≈ 46 bits), shown once. */
export const newSmppPassword = (): string => {
  let out = ""
  while (out.length < SMPP_PASSWORD_LENGTH) {
    // rejection sampling, no modulo bias: 57 letters, bytes ≥ 228 drawn again
    for (const b of randomBytes(SMPP_PASSWORD_LENGTH)) {
      if (b < 228 && out.length < SMPP_PASSWORD_LENGTH) out += PASSWORD_ALPHABET[b % PASSWORD_ALPHABET.length]
    }
  }
  return out
}

/** Whether a client address may bind with credentials allowing `allowed` (none listed: any). */
export const smppAddressAllowed = (allowed: ReadonlyArray<string>, address: string | undefined): boolean =>
  allowed.length === 0 || (address !== undefined && Cidr.matcher(allowed)(address))

// ---------------------------------------------------------------------------------------------
// command_status
// ---------------------------------------------------------------------------------------------

/** The SMPP command_status values the server answers with (SMPP 3.4 §5.1.3). */
export const SmppStatus = {
  ESME_ROK: 0x00,
  ESME_RINVMSGLEN: 0x01,
  ESME_RINVCMDLEN: 0x02,
  ESME_RINVCMDID: 0x03,
  ESME_RINVBNDSTS: 0x04,
  ESME_RALYBND: 0x05,
  ESME_RSYSERR: 0x08,
  ESME_RINVSRCADR: 0x0a,
  ESME_RINVDSTADR: 0x0b,
  ESME_RBINDFAIL: 0x0d,
  ESME_RMSGQFUL: 0x14,
  ESME_RINVESMCLASS: 0x43,
  ESME_RSUBMITFAIL: 0x45,
  ESME_RTHROTTLED: 0x58,
  ESME_RINVDCS: 0x104,
  ESME_RX_T_APPN: 0x64,
  ESME_RX_R_APPN: 0x66
} as const

/**
 * The command_status a refused send is answered with, by the REST `error_code` (docs/smpp.md has the
 * table). Codes SMPP has a word for get it; the platform's own refusals take the ESME_RX_* and
 * vendor range the way Jasmin and Kannel users read them: `ESME_RX_R_APPN` (0x66, permanent: do not
 * retry as is), `ESME_RX_T_APPN` (0x64, temporary: retry later), 0x400+ for Tuma-specific ones.
 */
export const commandStatusOfRefusal: Readonly<Record<string, number>> = {
  VALIDATION_FAILED: SmppStatus.ESME_RINVDSTADR,
  ACCOUNT_INACTIVE: SmppStatus.ESME_RX_R_APPN,
  SENDER_ID_NOT_APPROVED: SmppStatus.ESME_RINVSRCADR,
  COUNTRY_NOT_AVAILABLE: SmppStatus.ESME_RINVDSTADR,
  ROUTE_NOT_VERIFIED: 0x401,
  RECIPIENT_OPTED_OUT: 0x402,
  SPAM_POLICY: 0x403,
  NO_PROVIDER_ROUTE: 0x404,
  PROVIDER_CREDIT_EXHAUSTED: SmppStatus.ESME_RX_T_APPN,
  INSUFFICIENT_BALANCE: 0x405,
  DUPLICATE_CONTENT_RATE_LIMITED: SmppStatus.ESME_RTHROTTLED,
  EMPTY_MESSAGE: SmppStatus.ESME_RINVMSGLEN,
  MESSAGE_TOO_LONG: SmppStatus.ESME_RINVMSGLEN
}

/** The command_status of a refusal's `error_code` (unknown codes: ESME_RSUBMITFAIL). */
export const commandStatusOf = (errorCode: string): number =>
  commandStatusOfRefusal[errorCode] ?? SmppStatus.ESME_RSUBMITFAIL

// ---------------------------------------------------------------------------------------------
// receipts
// ---------------------------------------------------------------------------------------------

/**
 * What a receipt reports: a final state (`delivered`, `failed`) or the intermediate `enroute` (the
 * carrier accepted the message; sent when the submit asked for intermediate notifications).
 */
export type ReceiptStatus = "delivered" | "failed" | "enroute"

/** SMPP 3.4 §5.2.28 message_state of a receipt: DELIVERED 2, UNDELIVERABLE 5, ENROUTE 1. */
export const messageStateOf = (status: ReceiptStatus): number =>
  status === "delivered" ? 2 : status === "failed" ? 5 : 1

const two = (n: number) => String(n).padStart(2, "0")

/** YYMMDDhhmm in UTC, the date of the receipt text (SMPP 3.4 Appendix B). */
export const smppDate = (d: Date): string =>
  `${two(d.getUTCFullYear() % 100)}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}${two(d.getUTCHours())}${
    two(d.getUTCMinutes())
  }`

/** What a receipt says about one message. */
export interface ReceiptFacts {
  readonly messageId: string
  readonly status: ReceiptStatus
  readonly submittedAt: Date
  readonly doneAt: Date
  readonly text: string
}

/**
 * The standard receipt text (SMPP 3.4 Appendix B, as Kannel and Jasmin parse it):
 * `id:… sub:001 dlvrd:001 submit date:YYMMDDhhmm done date:YYMMDDhhmm stat:DELIVRD err:000 text:…`
 * (`dlvrd:000`, `stat:UNDELIV`, `err:001` for a failed message; `dlvrd:000 stat:ENROUTE err:000` for an
 * intermediate receipt; text = the first 20 characters).
 */
export const receiptText = (r: ReceiptFacts): string => {
  const ok = r.status === "delivered"
  const stat = ok ? "DELIVRD" : r.status === "failed" ? "UNDELIV" : "ENROUTE"
  return `id:${r.messageId} sub:001 dlvrd:${ok ? "001" : "000"} submit date:${smppDate(r.submittedAt)} done date:${
    smppDate(r.doneAt)
  } stat:${stat} err:${r.status === "failed" ? "001" : "000"} text:${[...r.text].slice(0, 20).join("")}`
}

// ---------------------------------------------------------------------------------------------
// throughput
// ---------------------------------------------------------------------------------------------

/** A token bucket's state: tokens left at a time (milliseconds). */
export interface Bucket {
  readonly tokens: number
  readonly at: number
}

/**
 * Takes `parts` tokens from a bucket refilled at `rate` per second up to `burst`: the new state and
 * whether it was allowed (a refused take leaves the tokens as they were, refilled).
 */
export const takeParts = (
  bucket: Bucket | undefined,
  now: number,
  limits: { readonly rate: number; readonly burst: number },
  parts: number
): { readonly allowed: boolean; readonly bucket: Bucket } => {
  const before = bucket === undefined
    ? limits.burst
    : Math.min(limits.burst, bucket.tokens + (Math.max(0, now - bucket.at) * limits.rate) / 1000)
  if (before + 1e-9 >= parts) return { allowed: true, bucket: { tokens: before - parts, at: now } }
  return { allowed: false, bucket: { tokens: before, at: now } }
}

/** What a process asks of the shared bucket: up to `want` tokens, none unless `atLeast`, after giving `returned` back. */
export interface LeaseRequest {
  readonly want: number
  readonly atLeast: number
  /** Tokens of an earlier lease not spent, given back first. */
  readonly returned: number
}

/** A lease's answer: the tokens granted (0: refused), the bucket after it, and when `want` tokens will be there. */
export interface Lease {
  readonly granted: number
  readonly bucket: Bucket
  /** Milliseconds until the bucket holds `want` tokens again (0 when it already does). */
  readonly refillMillis: number
}

/**
 * A lease of tokens from an account's bucket shared by every process (docs/smpp.md "Throughput"): the
 * bucket is refilled at `rate` per second up to `burst`, the unspent tokens of an earlier lease are
 * given back (still at most `burst`), then as many whole tokens as there are up to `want` are granted
 * — none when fewer than `atLeast`. The processes spend their leases locally; since every token they
 * spend was taken from the bucket, all of them together never pass `rate` × time + `burst`.
 */
export const leaseParts = (
  bucket: Bucket | undefined,
  now: number,
  limits: { readonly rate: number; readonly burst: number },
  request: LeaseRequest
): Lease => {
  const refilled = bucket === undefined
    ? limits.burst
    : Math.min(limits.burst, bucket.tokens + (Math.max(0, now - bucket.at) * limits.rate) / 1000)
  const available = Math.min(limits.burst, refilled + Math.max(0, request.returned))
  const whole = Math.floor(available + 1e-9)
  const granted = request.atLeast > 0 && whole >= request.atLeast ? Math.min(request.want, whole) : 0
  const left = available - granted
  const refillMillis = left + 1e-9 >= request.want ? 0 : Math.ceil(((request.want - left) * 1000) / limits.rate)
  return { granted, bucket: { tokens: left, at: now }, refillMillis }
}

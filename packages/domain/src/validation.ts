/**
 * From schema failures to the 422 shape of decisions.md §4: `{ "recipients.0": ["..."] }`, plus the
 * checks that need an argument schemas cannot read (the current time).
 *
 * Schema messages in schemas.ts are written without the field name ("The field must be a string.");
 * {@link fieldErrorsFromIssues} puts the path in ("The recipients.0 field must be a string."), turns
 * missing keys into "The <path> field is required." and drops the issues of union members that do not
 * apply to the value sent. Use it on `HttpApiDecodeError.issues` as well as on ParseErrors.
 */
import { Either, ParseResult, Schema } from "effect"
import { type FieldErrors, ValidationFailed } from "./errors.js"

/** Message of union-member issues that do not apply (dropped by {@link fieldErrorsFromIssues}). */
export const SUPPRESSED_ISSUE = "\u0000suppressed"

/** The part of an issue {@link fieldErrorsFromIssues} reads (ArrayFormatter's and HttpApi's issues). */
export interface IssueLike {
  readonly _tag: string
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
}

const NULLISH_MEMBER = /^Expected (?:null|undefined), actual /

/** `["recipients", 3, "to"]` → `recipients.3.to`. */
export const formatPath = (path: ReadonlyArray<PropertyKey>): string =>
  path.map((p) => (typeof p === "symbol" ? (p.description ?? "") : String(p))).join(".")

const phrase = (attribute: string, message: string): string => {
  if (message.startsWith("The field ")) return `The ${attribute} field ${message.slice(10)}`
  if (message.startsWith("The selected value ")) return `The selected ${attribute} ${message.slice(19)}`
  return message
}

/**
 * Groups issues by path (joined with `.`, the body itself is `""`), in order, without duplicate
 * messages per path. Missing keys read "The <path> field is required.".
 */
export const fieldErrorsFromIssues = (issues: ReadonlyArray<IssueLike>): FieldErrors => {
  const errors: Record<string, Array<string>> = {}
  const paths = new Map<string, number>()
  for (const issue of issues) {
    if (issue.message === SUPPRESSED_ISSUE || NULLISH_MEMBER.test(issue.message)) continue
    const p = formatPath(issue.path)
    paths.set(p, (paths.get(p) ?? 0) + 1)
  }
  for (const issue of issues) {
    if (issue.message === SUPPRESSED_ISSUE) continue
    // the null/undefined member of an optional or nullable union, when the other member already spoke
    if (NULLISH_MEMBER.test(issue.message) && (paths.get(formatPath(issue.path)) ?? 0) > 0) continue
    const attribute = formatPath(issue.path)
    const name = attribute === "" ? "request body" : attribute
    const message = issue._tag === "Missing" ? `The ${name} field is required.` : phrase(name, issue.message)
    const list = errors[attribute] ?? (errors[attribute] = [])
    if (!list.includes(message)) list.push(message)
  }
  return errors
}

/** All issues of a ParseError (decode with `{ errors: "all" }` to have them all) as field errors. */
export const toFieldErrors = (error: ParseResult.ParseError): FieldErrors =>
  fieldErrorsFromIssues(ParseResult.ArrayFormatter.formatErrorSync(error))

/** The 422 error for field errors: its message is the first one plus "(and N more errors)". */
export const validationFailed = (errors: FieldErrors): ValidationFailed => {
  const all = Object.values(errors).flat()
  const first = all[0] ?? "The given data was invalid."
  const more = all.length - 1
  const message = more <= 0 ? first : `${first} (and ${more} more error${more === 1 ? "" : "s"})`
  return new ValidationFailed({ message, errors })
}

/** Merges field-error maps (messages appended per path, duplicates dropped). */
export const mergeFieldErrors = (...maps: ReadonlyArray<FieldErrors>): FieldErrors => {
  const out: Record<string, Array<string>> = {}
  for (const m of maps) {
    for (const [k, v] of Object.entries(m)) {
      const list = out[k] ?? (out[k] = [])
      for (const msg of v) if (!list.includes(msg)) list.push(msg)
    }
  }
  return out
}

/**
 * Decodes an unknown input with every issue collected, answering {@link ValidationFailed}:
 * `decodeRequest(SendMessageRequest)(json)`.
 */
export const decodeRequest = <A, I>(schema: Schema.Schema<A, I, never>) => {
  const decode = Schema.decodeUnknownEither(schema, { errors: "all", onExcessProperty: "ignore" })
  return (input: unknown): Either.Either<A, ValidationFailed> =>
    Either.mapLeft(decode(input), (e) => validationFailed(toFieldErrors(e)))
}

// ---------------------------------------------------------------------------------------------
// Dates
// ---------------------------------------------------------------------------------------------

const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))?$/
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/

const validDate = (y: number, m: number, d: number) => {
  if (m < 1 || m > 12 || d < 1) return false
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate()
  return d <= days
}

/**
 * Parses an ISO 8601 date-time: `YYYY-MM-DDTHH:MM[:SS[.fraction]][Z|±HH:MM|±HHMM]` (a space may
 * replace `T`). Without an offset the time is UTC. Calendar-checked (`2025-02-30T…` is refused).
 * Answers `undefined` when the text is not such a date-time.
 */
export const parseIsoDateTime = (text: string): Date | undefined => {
  const m = ISO_DATE_TIME.exec(text.trim())
  if (m === null) return undefined
  const [y, mo, d, h, mi] = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5])]
  const s = m[6] === undefined ? 0 : Number(m[6])
  const ms = m[7] === undefined ? 0 : Math.floor(Number(`0.${m[7]}`) * 1000)
  if (!validDate(y, mo, d) || h > 23 || mi > 59 || s > 59) return undefined
  let offsetMinutes = 0
  if (m[9] !== undefined) {
    const oh = Number(m[10])
    const om = Number(m[11])
    if (oh > 18 || om > 59) return undefined
    offsetMinutes = (m[9] === "-" ? -1 : 1) * (oh * 60 + om)
  }
  return new Date(Date.UTC(y, mo - 1, d, h, mi, s, ms) - offsetMinutes * 60_000)
}

/** True for a calendar date written `YYYY-MM-DD`. */
export const isIsoDate = (text: string): boolean => {
  const m = ISO_DATE.exec(text)
  return m !== null && validDate(Number(m[1]), Number(m[2]), Number(m[3]))
}

/**
 * `scheduled_at` against the current time (decisions.md §14): absent or null → `null` (send now);
 * a date-time not strictly after `now` → 422 on `scheduled_at`.
 */
export const checkScheduledAt = (
  value: string | null | undefined,
  now: Date,
  field = "scheduled_at"
): Either.Either<Date | null, ValidationFailed> => {
  if (value == null) return Either.right(null)
  const at = parseIsoDateTime(value)
  if (at === undefined) {
    return Either.left(validationFailed({ [field]: [`The ${field} field must be a valid ISO 8601 date-time.`] }))
  }
  if (at.getTime() <= now.getTime()) {
    return Either.left(validationFailed({ [field]: [`The ${field} field must be a date-time in the future.`] }))
  }
  return Either.right(at)
}

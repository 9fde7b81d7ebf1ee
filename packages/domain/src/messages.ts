/**
 * The catalogue of Tuma's messages for people: every validation issue, refusal, failure reason and
 * rule text the server writes, each under a stable machine code with its English template
 * (`{name}` marks a parameter). One home: the English texts the server answers are exactly these
 * templates filled in, and {@link describeMessage} gives any such text back its code and parameters,
 * so a screen can word it in the reader's language without reading English (docs/decisions.md,
 * "Messages in the customer's language").
 *
 * Parameter names carry their kind: `field`/`other` are request field paths (`recipients.2.to`),
 * `status`/`from` are status values, `country` a country's name or ISO code; the rest are values
 * (numbers, names, phone numbers) shown as they are.
 *
 * Owners: never change a code; a new message gets a new entry (and its Kiswahili in the portal's sw.ts).
 */

import { Schema } from "effect"

/** Code → English template. Codes are lower dotted (`phone.international_format`) and never renamed. */
export const MESSAGE_TEMPLATES = {
  // --- fields (schema issues, decisions.md §4) -------------------------------------------------
  "field.required": "The {field} field is required.",
  "field.required_without": "The {field} field is required when {other} is not present.",
  "field.required_with_protection": "The {field} field is required when protection_requested is true.",
  "field.synonyms_equal": "The {field} and {other} fields must be equal when both are given.",
  "field.string": "The {field} field must be a string.",
  "field.string_or_number": "The {field} field must be a string or a number.",
  "field.string_max": "The {field} field must be a string of at most {max} characters.",
  "field.uuid": "The {field} field must be a valid UUID.",
  "field.datetime": "The {field} field must be a valid ISO 8601 date-time.",
  "field.datetime_iso": "The {field} field must be an ISO 8601 date-time.",
  "field.date": "The {field} field must be a valid date in the format YYYY-MM-DD.",
  "field.date_short": "The {field} field must be a valid date (YYYY-MM-DD).",
  "field.future": "The {field} field must be a date-time in the future.",
  "field.date_after_or_equal": "The {field} field must be a date after or equal to {other}.",
  "field.date_after": "The {field} field must be a date after {other}.",
  "field.array": "The {field} field must be an array.",
  "field.min_one_item": "The {field} field must have at least 1 item.",
  "field.max_items": "The {field} field must not have more than {max} items.",
  "field.integer": "The {field} field must be an integer.",
  "field.min_one": "The {field} field must be at least 1.",
  "field.positive_integer": "The {field} field must be a positive integer.",
  "field.non_negative_integer": "The {field} field must be a non-negative integer.",
  "field.non_zero_integer": "The {field} field must be a non-zero integer (negative removes credit).",
  "field.decimal_2": "The {field} field must be a decimal number with at most 2 decimals.",
  "field.too_large": "The {field} field is too large.",
  "field.boolean": "The {field} field must be true or false.",
  "field.base64": "The {field} field must be valid base64.",
  "field.nul": "The {field} field must not contain the NUL character (U+0000).",
  "field.min_chars": "The {field} field must be at least {min} characters.",
  "field.max_chars": "The {field} field must not be greater than {max} characters.",
  "field.ascii_key": "The {field} field must be 1 to 255 visible ASCII characters.",
  "field.phone_or_object": "The {field} field must be a phone number or an object with a to field.",
  "field.format": "The {field} field format is invalid.",
  "field.email": "The {field} field must be a valid email address.",
  "field.e164": "The {field} field must be a valid phone number in E.164 format.",
  "field.sender_id_rules": "The {field} field must be {min} to {max} letters, digits and single spaces.",
  "field.file_types": "The {field} field must be a file of type: {formats}.",
  "field.file_content_checked": "The {field} field must be a {formats} file (checked by content).",
  "field.file_content": "The {field} field must be a {formats} file.",
  "field.file_mismatch": "The {field} field content does not match its file name.",
  "field.file_size": "The {field} field must not be greater than {max} kilobytes.",
  "field.selected_invalid": "The selected {field} is invalid.",
  "field.selected_country": "The selected {field} is invalid: unknown country {country}.",
  "validation.invalid": "The given data was invalid.",
  "document.required": "The document \"{name}\" is required.",
  // --- phone numbers (phone.ts) ----------------------------------------------------------------
  "phone.required": "The recipient is required.",
  "phone.too_long": "The recipient must not be greater than {max} characters.",
  "phone.characters": "The recipient may contain only digits, one leading +, spaces, brackets, dots and dashes.",
  "phone.international_format": "The recipient must be in international format, starting with + and the country code.",
  "phone.invalid": "The recipient is not a valid phone number.",
  "phone.no_country": "The recipient is not a phone number of any country.",
  "phone.duplicate": "{recipient} is listed more than once; it is sent once, to its first entry.",
  // --- sender IDs (senderId.ts, core senderIds) ------------------------------------------------
  "sender_id.characters": "The sender ID may contain only letters A-Z, digits and single spaces between words.",
  "sender_id.too_short": "The sender ID must be at least {min} characters.",
  "sender_id.too_long": "The sender ID must not be greater than {max} characters.",
  "sender_id.reserved": "The sender ID {sender_id} is reserved and cannot be requested.",
  "sender_id.rules": "3 to 11 characters: letters A-Z, digits and single spaces between words; no symbols or " +
    "accents. Outer spaces are trimmed, repeated spaces collapsed, and the name is stored in uppercase. " +
    "Reserved names are always refused.",
  "sender_id.sample_rules": "50 to 500 characters: a real message you will send with this sender ID.",
  "sender_id.eligible": "The account has purchased {purchased} SMS units; at least {required} are required.",
  "sender_id.not_eligible":
    "Purchase at least {missing} more SMS units to request a sender ID ({purchased} of {required} purchased).",
  "sender_id.exists_for_account":
    "The account already has the sender ID {sender_id} for {country}; move that record instead.",
  "sender_id.already_requested":
    "The sender ID {sender_id} already exists for {country}; poll the list instead of retrying.",
  "sender_id.country_closed": "{country} is not open for sending; sender IDs cannot be requested for it yet.",
  "sender_id.country_unavailable": "The selected country is not available for sender IDs.",
  "sender_id.rejection_reason_required": "A reason is required to reject a sender ID.",
  "sender_id.rejection_requires_reason": "A rejection requires a reason.",
  // --- sending refusals (errors.ts) ------------------------------------------------------------
  "send.account_inactive": "Your account is not active.",
  "send.sender_id_not_approved": "The sender ID {sender_id} is not approved on your account for {country}.",
  "send.sender_id_pending": "The sender ID {sender_id} is {status}, not approved for {country}.",
  "send.country_not_available": "Sending to {country} is not available.",
  "send.route_not_verified": "Your account has no verified SMS route for {country}.",
  "send.route_not_verified_verify": "No verified SMS route for {country}: verify a phone number for it first.",
  "send.opted_out": "The recipient {recipient} has opted out of your messages.",
  "send.no_provider_route": "No provider route is available for {country}.",
  "send.provider_credit_exhausted": "Provider credit for {country} is exhausted.",
  "send.insufficient_balance": "Insufficient balance: {required} units needed in {country}, {available} available.",
  "send.insufficient_balance_campaign": "Insufficient balance: the campaign needs {detail}.",
  "send.idempotency_key_reused":
    "This Idempotency-Key was already used with a different request. Use a new key for a new message.",
  "send.rate_limited": "Too many requests for this API key; slow down.",
  "send.duplicate_content":
    "The same message from this sender ID was sent more than {limit} times in {minutes} minutes; try again later.",
  "send.empty": "The message is empty: there is nothing to send.",
  "send.body_empty": "The body is empty: there is nothing to send.",
  "send.nothing_left": "Nothing is left to send after conversion: the body held only emoji or invisible characters.",
  "send.too_long": "The message is {characters} characters long; at most {max} are allowed.",
  "send.tag_invalid": "The tag {tag} is invalid: {reason}.",
  "spam.blocked_phrase": "The message was refused by the spam policy: it contains the blocked phrase \"{phrase}\".",
  "spam.no_links": "The message was refused by the spam policy: messages may not contain links.",
  "spam.too_many_links":
    "The message was refused by the spam policy: it contains {links} links; at most {max} are allowed.",
  "spam.url_shortener":
    "The message was refused by the spam policy: links through URL shorteners ({host}) are not allowed.",
  "spam.blocked_domain": "The message was refused by the spam policy: links to {host} are not allowed.",
  "spam.domain_not_allowed": "The message was refused by the spam policy: links to {host} are not on the allowed list.",
  "transition.illegal": "A {machine} in state {from} cannot take the event {event}.",
  "campaign.not_found": "The campaign was not found.",
  // --- failure reasons of messages (core delivery) ---------------------------------------------
  "failure.no_route": "Not sent: there is no carrier route to {country}.",
  "failure.no_credit": "Not sent: no carrier has credit left for {country}.",
  "failure.unconfirmed":
    "Delivery unconfirmed: the carrier never confirmed it took the message and sent no delivery receipt.",
  "failure.cancelled": "The campaign was cancelled before its scheduled time.",
  "failure.expired": "Delivery failed: the carrier could not reach the handset before the message expired ({code}).",
  "failure.deleted": "Delivery failed: the carrier deleted the message before delivery ({code}).",
  "failure.undeliverable": "Delivery failed: the carrier could not deliver the message to the handset ({code}).",
  "failure.unknown": "Delivery failed: the carrier reported the message in an unknown state ({code}).",
  "failure.rejected": "Delivery failed: the carrier rejected the message ({code}).",
  "failure.other_status": "Delivery failed: the carrier reported status {status} ({code}).",
  "failure.gateway_stopping": "Not sent: the gateway is stopping.",
  "failure.earlier_part": "Not sent: an earlier part was refused.",
  // --- encoding notices (encoding.ts) ---------------------------------------------------------
  "encoding.unicode_kept":
    "Sent as Unicode ({per} characters per SMS): GSM-7 cannot carry \"{character}\" ({character_name}), so the " +
    "text is sent as written.",
  "encoding.unicode_kept_removals":
    "Sent as Unicode ({per} characters per SMS): GSM-7 cannot carry \"{character}\" ({character_name}), so the " +
    "text is sent as written, except the removals listed in changes.",
  "encoding.unicode_cheaper_one":
    "Sent as Unicode ({per} characters per SMS): converting to GSM-7 would take {segments} segment instead of {unicode}.",
  "encoding.unicode_cheaper":
    "Sent as Unicode ({per} characters per SMS): converting to GSM-7 would take {segments} segments instead of {unicode}.",
  // --- sessions, users, teams (portal and console) ---------------------------------------------
  "session.portal_required": "Sign in to use the portal (no session, or it has ended).",
  "session.console_required": "Sign in to use the console (no session, or it has ended).",
  "session.wrong_credentials": "The e-mail or password is not correct.",
  "session.wrong_credentials_code": "The e-mail, password or authentication code is not correct.",
  "session.locked_reset": "Too many failed sign-ins. Try again later or reset your password.",
  "session.locked": "Too many failed sign-ins. Try again later.",
  "session.code_required": "Enter the authentication code from your authenticator app.",
  "session.code_wrong": "The authentication code is not correct.",
  "user.current_password_wrong": "The current password is not correct.",
  "user.password_too_short": "The password must be at least {min} characters.",
  "user.password_too_long": "The password must not be greater than {max} characters.",
  "user.email_invalid": "The email must be a valid email address.",
  "user.time_zone_invalid": "The time zone must be an IANA zone such as Africa/Dar_es_Salaam.",
  "user.tz_invalid": "The tz must be an IANA time zone.",
  "user.exists": "A portal user with this e-mail already exists.",
  "user.not_found": "The user was not found.",
  "user.last_owner": "An account keeps at least one owner.",
  "user.owner_required": "Only an owner of the account can do this.",
  "invitation.invalid": "This invitation is not valid: it was used or has expired.",
  "invitation.invalid_revoked": "This invitation is not valid: it was used, revoked or has expired.",
  "invitation.not_found": "The invitation was not found.",
  "reset.invalid": "This password reset link is not valid: it was used or has expired.",
  "api_key.not_found": "The API key was not found.",
  "webhook.one_per_key": "This API key already has a webhook endpoint; change or re-enable that one.",
  "webhook.url_refused": "The webhook URL is refused: {reason}.",
  "webhook.not_found": "The webhook endpoint was not found.",
  // --- operators (console) ---------------------------------------------------------------------
  "operator.role_forbidden": "The {role} role cannot do this (it needs {access}).",
  "operator.exists": "An operator with this e-mail exists.",
  "operator.not_found": "The operator was not found.",
  "operator.role_invalid": "The role must be one of admin, reviewer, support.",
  "operator.top_up_reference": "A reference (invoice, receipt) is required for a top-up.",
  "operator.correction_reason": "A reason is required for a correction.",
  "operator.no_wallet": "The account has no {country} wallet to correct.",
  "operator.correction_negative":
    "The correction would make the {country} wallet negative: its balance is {balance}, the correction {units}.",
  "operator.ledger_entry_foreign": "The ledger entry {entry} is not an entry of the account's {country} wallet.",
  "provider.exists": "A provider named {name} exists.",
  "provider.port": "The port must be an integer from 1 to 65535.",
  "provider.name": "The name is required (at most 100 characters).",
  "provider.listed_twice": "The provider is listed twice.",
  "account.exists": "An account with the e-mail {email} exists.",
  "resource.not_found": "The {resource} {id} was not found.",
  // --- SMPP credentials (smpp.ts): console, admin API and the portal's owner -------------------
  "smpp.system_id_length": "The system ID must be 1 to {max} characters.",
  "smpp.system_id_characters": "The system ID may contain only letters, digits, '.', '_' and '-'.",
  "smpp.rate": "The throughput must be a whole number of parts per second, from {min} to {max}.",
  "smpp.burst": "The burst must be a whole number of parts, at least the throughput and at most {max}.",
  "smpp.max_binds": "The number of binds must be a whole number from {min} to {max}.",
  "smpp.address": "{address} is not an IP address (like 196.41.2.10) or a range of addresses (like 196.41.2.0/24).",
  "smpp.limits_by_provider":
    "The throughput and the number of binds are set by your provider; ask them to change these.",
  // --- the server ------------------------------------------------------------------------------
  "server.unavailable": "The service is temporarily unavailable; nothing was stored or charged. Retry shortly.",
  "server.internal": "Internal server error. Quote request_uid to support.",
  "server.body_too_large": "The request body is too large.",
  "server.unreachable": "The server cannot be reached.",
  // --- carrier coverage (console) --------------------------------------------------------------
  "provider.last_carrier":
    "Disabling {provider} leaves {markets} without a carrier: sends there would be accepted and then fail. Confirm with confirm_no_route to disable it anyway."
} as const

/** A stable message code of the catalogue. */
export type MessageCode = keyof typeof MESSAGE_TEMPLATES

/** A message as code and parameters (the English is `MESSAGE_TEMPLATES[code]` filled with `params`). */
export interface DescribedMessage {
  readonly code: string
  readonly params: Readonly<Record<string, string>>
}

const isCode = (code: string): code is MessageCode => Object.hasOwn(MESSAGE_TEMPLATES, code)

/** The English template of a code, or undefined for a code this version does not know. */
export const messageTemplate = (code: string): string | undefined => isCode(code) ? MESSAGE_TEMPLATES[code] : undefined

/** Fills `{name}` placeholders of a template (an unknown name stays as written). */
export const fillTemplate = (template: string, params: Readonly<Record<string, string | number>>): string =>
  template.replace(/\{(\w+)\}/g, (m, k: string) => (Object.hasOwn(params, k) ? String(params[k]) : m))

/** The English text of a catalogue message: `say("phone.required")`. */
export const say = (code: MessageCode, params: Readonly<Record<string, string | number>> = {}): string =>
  fillTemplate(MESSAGE_TEMPLATES[code], params)

interface Compiled {
  readonly code: string
  readonly names: ReadonlyArray<string>
  readonly regex: RegExp
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

let compiled: ReadonlyArray<Compiled> | undefined
const patterns = (): ReadonlyArray<Compiled> =>
  compiled ??= Object.entries(MESSAGE_TEMPLATES).map(([code, template]) => {
    const names: Array<string> = []
    const source = template.split(/(\{\w+\})/).map((part) => {
      const m = /^\{(\w+)\}$/.exec(part)
      if (m === null) return escape(part)
      names.push(m[1])
      return "(.+?)"
    }).join("")
    return { code, names, regex: new RegExp(`^${source}$`, "s") }
  })

const MORE = / \(and (\d+) more errors?\)$/

/**
 * The code and parameters of a text the server wrote from this catalogue, or undefined for a text
 * it did not (a carrier's own words, an operator's rejection reason). A 422's summary
 * ("… (and 2 more errors)") is its first error with `more: "2"`.
 */
export const describeMessage = (text: string): DescribedMessage | undefined => {
  const more = MORE.exec(text)
  if (more !== null) {
    const first = describeMessage(text.slice(0, more.index))
    return first === undefined ? undefined : { code: first.code, params: { ...first.params, more: more[1] } }
  }
  for (const p of patterns()) {
    const m = p.regex.exec(text)
    if (m === null) continue
    const params: Record<string, string> = {}
    p.names.forEach((name, i) => {
      params[name] = m[i + 1]
    })
    return { code: p.code, params }
  }
  return undefined
}

/** Field errors (`{ path: [english…] }`) as codes and parameters, path by path (undefined: not in the catalogue). */
export const describeFieldErrors = (
  errors: Readonly<Record<string, ReadonlyArray<string>>>
): Record<string, Array<DescribedMessage | null>> => {
  const out: Record<string, Array<DescribedMessage | null>> = {}
  for (const [path, list] of Object.entries(errors)) out[path] = list.map((m) => describeMessage(m) ?? null)
  return out
}

/** A described message on the wire: `{ code, params }`. */
export const DescribedMessageSchema = Schema.Struct({
  code: Schema.String,
  params: Schema.Record({ key: Schema.String, value: Schema.String })
})

/**
 * `details` of a failure answered by the portal's and the console's APIs: the message and each field error as
 * code and parameters (null where the text is not the catalogue's). The REST API does not send it.
 */
export const FailureDetails = Schema.Struct({
  message: Schema.NullOr(DescribedMessageSchema),
  errors: Schema.optional(
    Schema.Record({ key: Schema.String, value: Schema.Array(Schema.NullOr(DescribedMessageSchema)) })
  )
}).annotations({ description: "Portal and console only: message and field errors as catalogue codes and parameters." })
/** The type of {@link FailureDetails}. */
export type FailureDetails = typeof FailureDetails.Type

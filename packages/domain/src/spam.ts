/**
 * Spam policy as data and the opt-out check (spec §1, decisions.md §5: `SPAM_POLICY`,
 * `RECIPIENT_OPTED_OUT`).
 *
 * The policy is a plain object (decodable with {@link SpamPolicy} from configuration); `checkSpam`
 * compiles it once per policy object (cached in a WeakMap) and then costs one or two regex scans.
 */
import { Either, Schema } from "effect"
import { RecipientOptedOut, SpamPolicyViolation } from "./errors.js"

/** Link rules of the spam policy: how many links a message may carry and which domains are refused. */
export const SpamLinkRules = Schema.Struct({
  maxLinks: Schema.Int.pipe(Schema.nonNegative()).annotations({
    description: "Most links one message may carry (0 forbids links)."
  }),
  blockShorteners: Schema.Boolean.annotations({
    description: "Refuse links to URL shorteners (they hide the destination)."
  }),
  shortenerDomains: Schema.Array(Schema.String).annotations({
    description: "Domains treated as URL shorteners (subdomains included)."
  }),
  allowedDomains: Schema.NullOr(Schema.Array(Schema.String)).annotations({
    description: "When set, the only domains links may point to (subdomains included); null allows any."
  }),
  blockedDomains: Schema.Array(Schema.String).annotations({
    description: "Domains links may never point to (subdomains included)."
  })
})
export type SpamLinkRules = typeof SpamLinkRules.Type

/** The spam policy a send is checked against: blocked phrases and link rules. */
export const SpamPolicy = Schema.Struct({
  blockedPhrases: Schema.Array(Schema.String).annotations({
    description: "Phrases refused anywhere in a message: case-insensitive, whole words only, any run " +
      "of whitespace in the text matches a space of the phrase."
  }),
  links: SpamLinkRules
}).annotations({ identifier: "SpamPolicy", description: "Spam policy applied to every finished message." })
export type SpamPolicy = typeof SpamPolicy.Type

/** Well-known URL shorteners. */
export const DEFAULT_SHORTENER_DOMAINS: ReadonlyArray<string> = [
  "bit.ly",
  "bitly.com",
  "bit.do",
  "tinyurl.com",
  "t.co",
  "goo.gl",
  "ow.ly",
  "is.gd",
  "v.gd",
  "buff.ly",
  "cutt.ly",
  "rebrand.ly",
  "shorturl.at",
  "tiny.cc",
  "rb.gy",
  "t.ly",
  "s.id",
  "shorte.st",
  "adf.ly",
  "tr.im"
]

/** A short list of classic fraud and lottery-scam phrases; operators extend it. */
export const DEFAULT_BLOCKED_PHRASES: ReadonlyArray<string> = [
  "you have won",
  "you've won",
  "claim your prize",
  "lottery winner",
  "won a lottery",
  "free money",
  "double your money",
  "guaranteed income",
  "send your pin",
  "share your pin",
  "send me your pin",
  "tuma kwa namba hii"
]

/** Shorteners blocked, at most 2 links, any other domain allowed, the phrases above refused. */
export const defaultSpamPolicy: SpamPolicy = {
  blockedPhrases: DEFAULT_BLOCKED_PHRASES,
  links: {
    maxLinks: 2,
    blockShorteners: true,
    shortenerDomains: DEFAULT_SHORTENER_DOMAINS,
    allowedDomains: null,
    blockedDomains: []
  }
}

/**
 * One built-in entry of a base policy's phrase list, as the admin API lists it. `uid` is derived
 * from the phrase (`builtin-you-have-won`), so it is stable across restarts and processes; operators
 * switch entries off and on by it (the switches live in the store, keyed by kind and phrase).
 */
export interface BuiltinSpamEntry {
  readonly uid: string
  readonly kind: "blocked_phrase"
  readonly pattern: string
}

/** The built-in entries of `policy` (its `blockedPhrases`), in order, with unique uids. */
export const builtinSpamEntries = (policy: SpamPolicy): ReadonlyArray<BuiltinSpamEntry> => {
  const seen = new Set<string>()
  return policy.blockedPhrases.map((pattern, i) => {
    const slug = pattern.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "")
    const base = `builtin-${slug === "" ? String(i + 1) : slug}`
    let uid = base
    for (let n = 2; seen.has(uid); n++) uid = `${base}-${n}`
    seen.add(uid)
    return { uid, kind: "blocked_phrase" as const, pattern }
  })
}

/** `policy` without the built-in phrases switched off (the same object when none is). */
export const withoutPhrases = (policy: SpamPolicy, off: ReadonlyArray<string>): SpamPolicy => {
  if (off.length === 0) return policy
  const set = new Set(off)
  return { ...policy, blockedPhrases: policy.blockedPhrases.filter((p) => !set.has(p)) }
}

// ---------------------------------------------------------------------------------------------
// Links
// ---------------------------------------------------------------------------------------------

/** Generic top-level domains recognised in bare host names (`example.com`); any 2-letter one is too. */
const GENERIC_TLDS = new Set([
  "com",
  "net",
  "org",
  "info",
  "biz",
  "app",
  "dev",
  "xyz",
  "online",
  "site",
  "top",
  "club",
  "shop",
  "store",
  "link",
  "live",
  "click",
  "news",
  "blog",
  "tech",
  "cloud",
  "page",
  "web",
  "website",
  "space",
  "fun",
  "icu",
  "vip",
  "win",
  "bid",
  "loan",
  "work",
  "life",
  "today",
  "world",
  "email",
  "money",
  "cash",
  "gov",
  "edu",
  "mobi",
  "pro",
  "name",
  "africa"
])

const LINK = new RegExp(
  [
    String.raw`\bhttps?:\/\/[^\s<>"']+`,
    String.raw`\bwww\.[^\s<>"']+`,
    String
      .raw`(?<![\p{L}\p{N}@._\-\/])(?:[a-z0-9](?:[a-z0-9\-]{0,61}[a-z0-9])?\.)+([a-z]{2,24})(?![\p{L}\p{N}_\-@])(?:\/[^\s<>"']*)?`
  ].join("|"),
  "giu"
)

const TRAILING_PUNCTUATION = /[.,;:!?)\]}'"]+$/

/** A link found in a text. */
export interface FoundLink {
  readonly text: string
  /** Lower-case host name. */
  readonly host: string
}

/**
 * Links in a text: `http(s)://…`, `www.…`, and bare host names whose top-level domain is a country
 * code (2 letters) or a common generic one (`example.com/x`, `bit.ly/abc`). E-mail addresses are not
 * links. Trailing punctuation is not part of a link.
 */
export const findLinks = (text: string): ReadonlyArray<FoundLink> => {
  const links: Array<FoundLink> = []
  LINK.lastIndex = 0
  for (let m = LINK.exec(text); m !== null; m = LINK.exec(text)) {
    const raw = m[0].replace(TRAILING_PUNCTUATION, "")
    const tld = m[1]
    if (tld !== undefined && tld.length > 2 && !GENERIC_TLDS.has(tld.toLowerCase())) continue
    let rest = raw.replace(/^https?:\/\//i, "")
    const end = rest.search(/[/?#]/)
    if (end !== -1) rest = rest.slice(0, end)
    const at = rest.lastIndexOf("@")
    if (at !== -1) rest = rest.slice(at + 1)
    const host = rest.replace(/:\d*$/, "").replace(/\.$/, "").toLowerCase()
    if (host !== "") links.push({ text: raw, host })
  }
  return links
}

const hostMatches = (host: string, domain: string): boolean => {
  const d = domain.trim().toLowerCase().replace(/^\.+/, "")
  return d !== "" && (host === d || host.endsWith(`.${d}`))
}

// ---------------------------------------------------------------------------------------------
// Check
// ---------------------------------------------------------------------------------------------

interface CompiledPolicy {
  readonly phrases: RegExp | null
}

const compiled = new WeakMap<SpamPolicy, CompiledPolicy>()

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

const compile = (policy: SpamPolicy): CompiledPolicy => {
  let c = compiled.get(policy)
  if (c === undefined) {
    const alternatives = policy.blockedPhrases
      .map((p) => p.trim())
      .filter((p) => p !== "")
      .map((p) => p.split(/\s+/).map(escapeRegExp).join(String.raw`\s+`))
    c = {
      phrases: alternatives.length === 0
        ? null
        : new RegExp(String.raw`(?<![\p{L}\p{N}_])(?:${alternatives.join("|")})(?![\p{L}\p{N}_])`, "iu")
    }
    compiled.set(policy, c)
  }
  return c
}

const violation = (rule: string, message: string) =>
  Either.left(new SpamPolicyViolation({ message: `The message was refused by the spam policy: ${message}`, rule }))

/**
 * Checks a finished message against a policy. Rules, in order (the first failure is answered):
 * `blocked_phrase`, `too_many_links`, `url_shortener`, `blocked_domain`, `domain_not_allowed`.
 */
export const checkSpam = (policy: SpamPolicy, text: string): Either.Either<void, SpamPolicyViolation> => {
  const { phrases } = compile(policy)
  if (phrases !== null) {
    const m = phrases.exec(text)
    if (m !== null) return violation("blocked_phrase", `it contains the blocked phrase "${m[0]}".`)
  }
  const links = findLinks(text)
  if (links.length === 0) return Either.void
  const rules = policy.links
  if (links.length > rules.maxLinks) {
    return violation(
      "too_many_links",
      rules.maxLinks === 0
        ? "messages may not contain links."
        : `it contains ${links.length} links; at most ${rules.maxLinks} are allowed.`
    )
  }
  for (const link of links) {
    if (rules.blockShorteners && rules.shortenerDomains.some((d) => hostMatches(link.host, d))) {
      return violation("url_shortener", `links through URL shorteners (${link.host}) are not allowed.`)
    }
    if (rules.blockedDomains.some((d) => hostMatches(link.host, d))) {
      return violation("blocked_domain", `links to ${link.host} are not allowed.`)
    }
    if (rules.allowedDomains !== null && !rules.allowedDomains.some((d) => hostMatches(link.host, d))) {
      return violation("domain_not_allowed", `links to ${link.host} are not on the allowed list.`)
    }
  }
  return Either.void
}

/** Anything with `has`: a `Set`, a `Map`, or a lookup over a loaded page of opt-outs. */
export interface OptOutLookup {
  readonly has: (e164: string) => boolean
}

/** Refuses a recipient (E.164) who opted out (decisions.md §5 `RECIPIENT_OPTED_OUT`). */
export const checkOptOut = (optedOut: OptOutLookup, e164: string): Either.Either<void, RecipientOptedOut> =>
  optedOut.has(e164)
    ? Either.left(
      new RecipientOptedOut({ message: `The recipient ${e164} has opted out of your messages.`, recipient: e164 })
    )
    : Either.void

import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import {
  checkOptOut,
  checkSpam,
  defaultSpamPolicy,
  findLinks,
  RecipientOptedOut,
  SpamPolicy,
  SpamPolicyViolation
} from "../src/index.js"

const rule = (policy: SpamPolicy, text: string): string | undefined => {
  const r = checkSpam(policy, text)
  if (Either.isRight(r)) return undefined
  expect(r.left).toBeInstanceOf(SpamPolicyViolation)
  expect(r.left.error_code).toBe("SPAM_POLICY")
  return r.left.rule
}

const policy = (overrides: Partial<SpamPolicy["links"]> = {}, blockedPhrases: ReadonlyArray<string> = []) =>
  ({ blockedPhrases, links: { ...defaultSpamPolicy.links, ...overrides } }) satisfies SpamPolicy

describe("checkSpam: blocked phrases", () => {
  it("lets ordinary messages through", () => {
    expect(rule(defaultSpamPolicy, "Your order 1234 is ready. Pick it up at Kariakoo branch.")).toBeUndefined()
    expect(rule(defaultSpamPolicy, "Karibu! Salio lako ni TZS 12,000.")).toBeUndefined()
  })

  it("matches case-insensitively, any whitespace run for a space", () => {
    expect(rule(defaultSpamPolicy, "Congratulations, YOU HAVE WON a car")).toBe("blocked_phrase")
    expect(rule(defaultSpamPolicy, "get free\n\tmoney now")).toBe("blocked_phrase")
    expect(rule(defaultSpamPolicy, "Tuma kwa namba hii: 0712")).toBe("blocked_phrase")
  })

  it("respects word boundaries", () => {
    const p = policy({}, ["win", "free money"])
    expect(rule(p, "We will win!")).toBe("blocked_phrase")
    expect(rule(p, "win.")).toBe("blocked_phrase")
    expect(rule(p, "Windows update and winter sale")).toBeUndefined()
    expect(rule(p, "carefree moneybox")).toBeUndefined()
    expect(rule(p, "free_money")).toBeUndefined()
    expect(rule(p, "Gewinn")).toBeUndefined()
  })

  it("phrases with regex characters are literal", () => {
    const p = policy({}, ["100% free", "$$$"])
    expect(rule(p, "now 100% FREE")).toBe("blocked_phrase")
    expect(rule(p, "100x free")).toBeUndefined()
    expect(rule(p, "earn $$$ today")).toBe("blocked_phrase")
  })

  it("names the phrase in the message", () => {
    const r = checkSpam(defaultSpamPolicy, "Free   Money!")
    expect(Either.isLeft(r) && r.left.message).toBe(
      "The message was refused by the spam policy: it contains the blocked phrase \"Free   Money\"."
    )
  })
})

describe("checkSpam: links", () => {
  it("finds scheme, www and bare-host links, not e-mails, abbreviations or amounts", () => {
    expect(findLinks("see https://Example.com/a?b=1, www.shop.co.tz and pay.example.org/x.").map((l) => l.host))
      .toEqual(["example.com", "www.shop.co.tz", "pay.example.org"])
    expect(findLinks("mail info@example.com e.g. i.e. TZS 1.500 at 3.5kg, Mr.Smith, etc.Please")).toEqual([])
    expect(findLinks("go to bit.ly/abc now")).toEqual([{ text: "bit.ly/abc", host: "bit.ly" }])
    expect(findLinks("http://user@evil.com:8080/path")[0]!.host).toBe("evil.com")
  })

  it("refuses URL shorteners, subdomains included", () => {
    expect(rule(defaultSpamPolicy, "Claim at https://bit.ly/3xYz")).toBe("url_shortener")
    expect(rule(defaultSpamPolicy, "Claim at TinyURL.com/abc")).toBe("url_shortener")
    expect(rule(defaultSpamPolicy, "Claim at https://www.bit.ly/3xYz")).toBe("url_shortener")
    expect(rule(policy({ blockShorteners: false }), "Claim at https://bit.ly/3xYz")).toBeUndefined()
  })

  it("limits the number of links", () => {
    const three = "a https://a.com b https://b.com c https://c.com"
    expect(rule(defaultSpamPolicy, three)).toBe("too_many_links")
    expect(rule(policy({ maxLinks: 3 }), three)).toBeUndefined()
    const none = checkSpam(policy({ maxLinks: 0 }), "see example.com")
    expect(Either.isLeft(none) && none.left.message).toContain("may not contain links")
  })

  it("allow-list and block-list domains", () => {
    const allow = policy({ allowedDomains: ["tuma.co.tz"] })
    expect(rule(allow, "Pay at https://pay.tuma.co.tz/i/1")).toBeUndefined()
    expect(rule(allow, "Pay at https://tuma.co.tz.evil.com/")).toBe("domain_not_allowed")
    expect(rule(allow, "Pay at https://nottuma.co.tz/")).toBe("domain_not_allowed")
    expect(rule(allow, "No links at all")).toBeUndefined()
    const block = policy({ blockedDomains: ["evil.com"] })
    expect(rule(block, "Visit login.evil.com")).toBe("blocked_domain")
    expect(rule(block, "Visit good.com")).toBeUndefined()
  })

  it("the policy is data: decodable from configuration", () => {
    const decoded = Schema.decodeUnknownSync(SpamPolicy)(JSON.parse(JSON.stringify(defaultSpamPolicy)))
    expect(rule(decoded, "you've won!")).toBe("blocked_phrase")
    expect(() => Schema.decodeUnknownSync(SpamPolicy)({ blockedPhrases: [], links: { maxLinks: -1 } })).toThrow()
  })
})

describe("checkOptOut", () => {
  it("refuses an opted-out recipient with RECIPIENT_OPTED_OUT", () => {
    const optedOut = new Set(["+255712345678"])
    const r = checkOptOut(optedOut, "+255712345678")
    expect(Either.isLeft(r) && r.left).toBeInstanceOf(RecipientOptedOut)
    expect(Either.isLeft(r) && r.left.error_code).toBe("RECIPIENT_OPTED_OUT")
    expect(Either.isLeft(r) && r.left.recipient).toBe("+255712345678")
    expect(Either.isRight(checkOptOut(optedOut, "+255712345679"))).toBe(true)
    expect(Either.isRight(checkOptOut(new Map(), "+255712345678"))).toBe(true)
  })
})

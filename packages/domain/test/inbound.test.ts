import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import type { InboundAssignment } from "../src/index.js"
import {
  assignmentConflict,
  decodeShortMessage,
  firstWord,
  HELP_FAMILY,
  inboundCommand,
  isReservedKeyword,
  isStopRequest,
  joinParts,
  normalizeInboundNumber,
  normalizeKeyword,
  partKey,
  routeInbound,
  sarConcat,
  START_FAMILY,
  STOP_FAMILY,
  toGsm7Octets
} from "../src/index.js"

describe("the opt-out families", () => {
  it("every word, any case, trimmed, a trailing . or ! ignored", () => {
    for (const [family, command] of [[STOP_FAMILY, "stop"], [START_FAMILY, "start"], [HELP_FAMILY, "help"]] as const) {
      for (const w of family) {
        expect(inboundCommand(w)).toBe(command)
        expect(inboundCommand(`  ${w.toLowerCase()}!! \n`)).toBe(command)
        expect(inboundCommand(`${w[0]}${w.slice(1).toLowerCase()}.`)).toBe(command)
      }
    }
    expect(["SITISHA", "ACHA"].every((w) => STOP_FAMILY.has(w))).toBe(true)
    expect(START_FAMILY.has("ANZA") && HELP_FAMILY.has("MSAADA")).toBe(true)
    expect(isStopRequest("sitisha")).toBe(true)
  })
  it("a sentence holding a family word is not a command", () => {
    for (const t of ["Stop the meeting", "please stop", "STOP?", "STOPS", "", "help me", "anza sasa"]) {
      expect(inboundCommand(t)).toBeNull()
    }
  })
  it.prop("no text of two words is ever a command", [fc.string(), fc.string()], ([a, b]) => {
    const w = (s: string) => s.replace(/\s/g, "") || "x"
    expect(inboundCommand(`${w(a)} ${w(b)}`)).toBeNull()
  })
  it("the first word is the keyword; opt-out words are reserved", () => {
    expect(firstWord("  vote yes please")).toBe("VOTE")
    expect(firstWord("")).toBe("")
    expect(isReservedKeyword("STOP") && isReservedKeyword("MSAADA") && !isReservedKeyword("VOTE")).toBe(true)
  })
})

const a = (id: string, number: string, keyword: string | null, aliases: Array<string> = []): InboundAssignment => ({
  id,
  accountId: `acct-${id}`,
  number,
  keyword,
  aliases
})

describe("addresses", () => {
  it("long numbers are E.164, short codes 3 to 8 digits; keywords one word", () => {
    expect(normalizeInboundNumber(" +254 700-000001")).toEqual({ number: "+254700000001" })
    expect(normalizeInboundNumber("22334")).toEqual({ number: "22334" })
    for (const bad of ["12", "+0123456789", "abc", "123456789", ""]) {
      expect(normalizeInboundNumber(bad)).toHaveProperty("error")
    }
    expect(normalizeKeyword(" vote ")).toEqual({ keyword: "VOTE" })
    expect(normalizeKeyword("two words")).toHaveProperty("error")
  })
  it("a dedicated address excludes every other assignment of it; keywords share, never twice", () => {
    const existing = [a("1", "+254700000001", null), a("2", "22334", "VOTE", ["KURA"])]
    expect(assignmentConflict(existing, { number: "254700000001", keyword: "X", aliases: [] })?.id).toBe("1")
    expect(assignmentConflict(existing, { number: "22334", keyword: null, aliases: [] })?.id).toBe("2")
    expect(assignmentConflict(existing, { number: "22334", keyword: "KURA", aliases: [] })?.id).toBe("2")
    expect(assignmentConflict(existing, { number: "22334", keyword: "INFO", aliases: ["VOTE"] })?.id).toBe("2")
    expect(assignmentConflict(existing, { number: "22334", keyword: "INFO", aliases: [] })).toBeNull()
    // changing an assignment does not collide with itself
    expect(assignmentConflict(existing, { number: "22334", keyword: "VOTE", aliases: [] }, "2")).toBeNull()
  })
  it.prop(
    "accepted assignments never route one message two ways",
    [fc.array(
      fc.tuple(
        fc.constantFrom("22334", "+254700000001"),
        fc.option(fc.constantFrom("A", "B", "C")),
        fc.subarray(["A", "B", "C", "D"])
      ),
      { maxLength: 8 }
    )],
    ([wanted]) => {
      const accepted: Array<InboundAssignment> = []
      wanted.forEach(([number, keyword, aliases], i) => {
        const c = { number, keyword, aliases: keyword === null ? [] : aliases.filter((x) => x !== keyword) }
        if (assignmentConflict(accepted, c) === null) accepted.push(a(String(i), c.number, c.keyword, c.aliases))
      })
      for (const to of ["22334", "254700000001"]) {
        for (const word of ["A", "B", "C", "D", "E"]) {
          const matches = accepted.filter((x) =>
            x.number.replace("+", "") === to && (x.keyword === null || x.keyword === word || x.aliases.includes(word))
          )
          expect(matches.length).toBeLessThanOrEqual(1)
          expect(routeInbound(accepted, to, `${word.toLowerCase()} hello`)?.id ?? null).toBe(matches[0]?.id ?? null)
        }
      }
    }
  )
  it("routes by dedicated address, else by keyword or alias; nothing else routes", () => {
    const all = [a("1", "+254700000001", null), a("2", "22334", "VOTE", ["KURA"])]
    expect(routeInbound(all, "254700000001", "anything")?.id).toBe("1")
    expect(routeInbound(all, "22334", "kura 3")?.id).toBe("2")
    expect(routeInbound(all, "22334", "hello")).toBeNull()
    expect(routeInbound(all, "99999", "vote")).toBeNull()
  })
})

const udh8 = (ref: number, total: number, seq: number) => [5, 0x00, 3, ref, total, seq]
const udh16 = (ref: number, total: number, seq: number) => [6, 0x08, 4, ref >> 8, ref & 0xff, total, seq]

describe("short messages", () => {
  it("decodes GSM-7 (with the extension table), Latin-1 and UCS-2", () => {
    expect(decodeShortMessage(toGsm7Octets("Habari {€}"), 0, 0)).toEqual({
      text: "Habari {€}",
      encoding: "GSM-7",
      concat: null
    })
    expect(decodeShortMessage(Uint8Array.from([0x63, 0x61, 0x66, 0xe9]), 0, 3)).toMatchObject({
      text: "café",
      encoding: "Latin-1"
    })
    const ucs2 = Uint8Array.from([0x04, 0x1f, 0x04, 0x40, 0xd8, 0x3d, 0xde, 0x00])
    expect(decodeShortMessage(ucs2, 0, 8)).toMatchObject({ text: "Пр😀", encoding: "UCS-2" })
  })
  it("reads 8-bit and 16-bit concatenation headers and the sar_* TLVs", () => {
    const body = [...toGsm7Octets("abc")]
    expect(decodeShortMessage(Uint8Array.from([...udh8(7, 3, 2), ...body]), 0x40, 0)).toEqual({
      text: "abc",
      encoding: "GSM-7",
      concat: { ref: 7, total: 3, seq: 2 }
    })
    expect(decodeShortMessage(Uint8Array.from([...udh16(0x1234, 5, 5), ...body]), 0x40, 0).concat).toEqual({
      ref: 0x1234,
      total: 5,
      seq: 5
    })
    // without UDHI the bytes are text; a sequence beyond the total is no concatenation
    expect(decodeShortMessage(Uint8Array.from(body), 0, 0).concat).toBeNull()
    expect(decodeShortMessage(Uint8Array.from([...udh8(7, 3, 4), ...body]), 0x40, 0).concat).toBeNull()
    expect(sarConcat(300, 2, 1)).toEqual({ ref: 300, total: 2, seq: 1 })
    expect(sarConcat(300, undefined, 1)).toBeNull()
  })
  it("a re-sent part has the same key; a single part is keyed by its text", () => {
    expect(partKey({ ref: 1, total: 3, seq: 2 }, "x")).toBe(partKey({ ref: 1, total: 3, seq: 2 }, "y"))
    expect(partKey(null, "YES")).toBe("s:YES")
    expect(partKey(null, "YES")).not.toBe(partKey(null, "NO"))
  })
  it.prop(
    "parts join in any order with duplicates dropped; a missing part is flagged, never dropped",
    [fc.array(fc.string({ minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 8 }), fc.integer(), fc.nat()],
    ([texts, seed, missingAt]) => {
      const total = texts.length
      const parts = texts.map((text, i) => ({ seq: i + 1, total, text }))
      const shuffled = [...parts, parts[Math.abs(seed) % total]!]
        .map((p, i) => ({ p, k: (seed * 31 + i * 17) % 97 })).sort((x, y) => x.k - y.k).map((x) => x.p)
      expect(joinParts(shuffled)).toEqual({ text: texts.join(""), parts: total, complete: true })
      if (total > 1) {
        const gone = missingAt % total
        const some = shuffled.filter((p) => p.seq !== gone + 1)
        expect(joinParts(some)).toEqual({
          text: texts.filter((_, i) => i !== gone).join(""),
          parts: total - 1,
          complete: false
        })
      }
    }
  )
})

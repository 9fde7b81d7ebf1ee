import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { canonicalJson, decideIdempotency, idempotencyFingerprint, IdempotencyKeyReused } from "../src/index.js"

const ENDPOINT = "POST /v1/sms/messages"

describe("canonicalJson", () => {
  it("sorts keys at every depth, keeps array order, drops undefined members", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null }, u: undefined })).toBe(
      "{\"a\":{\"c\":null,\"d\":[3,{\"y\":2,\"z\":1}]},\"b\":1}"
    )
  })

  it("prints parsed numbers once: 1.0 and 1, 1e2 and 100 agree", () => {
    expect(canonicalJson(JSON.parse("{\"a\":1.0,\"b\":1e2}"))).toBe(canonicalJson(JSON.parse("{\"b\":100,\"a\":1}")))
  })
})

describe("idempotencyFingerprint", () => {
  it("is SHA-256 hex, insensitive to key order and whitespace", () => {
    const a = JSON.parse("{\"recipient\":\"+255712345678\",\"sender_id\":\"TUMA\",\"body\":\"Hi\"}")
    const b = JSON.parse("{\n  \"body\" : \"Hi\",\n\t\"sender_id\":\"TUMA\" ,  \"recipient\": \"+255712345678\"\n}")
    expect(idempotencyFingerprint(ENDPOINT, a)).toMatch(/^[0-9a-f]{64}$/)
    expect(idempotencyFingerprint(ENDPOINT, a)).toBe(idempotencyFingerprint(ENDPOINT, b))
  })

  it("differs per endpoint and for array order", () => {
    const body = { recipients: ["+1", "+2"] }
    expect(idempotencyFingerprint(ENDPOINT, body)).not.toBe(idempotencyFingerprint("POST /v1/sms/send-bulk", body))
    expect(idempotencyFingerprint(ENDPOINT, body)).not.toBe(
      idempotencyFingerprint(ENDPOINT, { recipients: ["+2", "+1"] })
    )
  })

  it("tells a string from a number and null from absent", () => {
    expect(idempotencyFingerprint(ENDPOINT, { a: 1 })).not.toBe(idempotencyFingerprint(ENDPOINT, { a: "1" }))
    expect(idempotencyFingerprint(ENDPOINT, { a: null })).not.toBe(idempotencyFingerprint(ENDPOINT, {}))
  })
})

// Random JSON, and helpers to reorder keys / reformat / change one leaf.
const json = fc.jsonValue({ maxDepth: 4 })

const shuffleKeys = (v: unknown, seed: number): unknown => {
  if (Array.isArray(v)) return v.map((x, i) => shuffleKeys(x, seed + i))
  if (v !== null && typeof v === "object") {
    const entries = Object.entries(v)
    const rotated = entries.length === 0 ? entries : entries.map((_, i) => entries[(i + seed) % entries.length]!)
    return Object.fromEntries(rotated.reverse().map(([k, x]) => [k, shuffleKeys(x, seed * 7 + 1)]))
  }
  return v
}

type Path = Array<string | number>
const leaves = (v: unknown, path: Path = [], out: Array<Path> = []): Array<Path> => {
  if (Array.isArray(v)) v.forEach((x, i) => leaves(x, [...path, i], out))
  else if (v !== null && typeof v === "object") { for (const [k, x] of Object.entries(v)) leaves(x, [...path, k], out) }
  else out.push(path)
  return out
}
const changeAt = (v: unknown, path: Path): unknown => {
  if (path.length === 0) {
    if (typeof v === "number") return v + 1
    if (typeof v === "string") return v + "x"
    if (typeof v === "boolean") return !v
    return 0 // null
  }
  const [head, ...rest] = path
  if (Array.isArray(v)) return v.map((x, i) => (i === head ? changeAt(x, rest) : x))
  return { ...(v as object), [head!]: changeAt((v as Record<string, unknown>)[head!], rest) }
}

describe("fingerprint properties", () => {
  it.prop("equal for reordered keys and any whitespace", [json, fc.nat(), fc.nat({ max: 8 })], ([v, seed, indent]) => {
    const reordered = JSON.parse(JSON.stringify(shuffleKeys(v, seed), null, indent))
    expect(idempotencyFingerprint(ENDPOINT, reordered)).toBe(idempotencyFingerprint(ENDPOINT, v))
  })

  it.prop("different for any change of one value", [json, fc.nat()], ([v, pick]) => {
    const paths = leaves(v)
    const changed = paths.length === 0
      ? (Array.isArray(v) ? [...v, 0] : { ...(v as object), x: 0 }) // an empty container: add a value
      : changeAt(v, paths[pick % paths.length]!)
    fc.pre(JSON.stringify(changed) !== JSON.stringify(v))
    expect(idempotencyFingerprint(ENDPOINT, changed)).not.toBe(idempotencyFingerprint(ENDPOINT, v))
  })

  it.prop("different for an added or removed member", [fc.dictionary(fc.string(), json, { minKeys: 1 })], ([o]) => {
    const [first] = Object.keys(o)
    const { [first!]: _removed, ...rest } = o
    expect(idempotencyFingerprint(ENDPOINT, rest)).not.toBe(idempotencyFingerprint(ENDPOINT, o))
  })
})

describe("decideIdempotency", () => {
  const created_at = new Date("2030-01-01T00:00:00Z")
  const record = { fingerprint: "f1", created_at, response: { uid: "m1" } }
  const later = (ms: number) => new Date(created_at.getTime() + ms)
  const DAY = 24 * 3600 * 1000

  it("no record: new", () => {
    expect(decideIdempotency(undefined, "f1", created_at)).toEqual({ _tag: "New" })
    expect(decideIdempotency(null, "f1", created_at)).toEqual({ _tag: "New" })
  })

  it("same content within 24 h: replay of the stored record", () => {
    const d = decideIdempotency(record, "f1", later(DAY - 1))
    expect(d).toEqual({ _tag: "Replay", record })
  })

  it("different content within 24 h: conflict IDEMPOTENCY_KEY_REUSED", () => {
    const d = decideIdempotency(record, "f2", later(1000))
    expect(d._tag).toBe("Conflict")
    if (d._tag === "Conflict") {
      expect(d.error).toBeInstanceOf(IdempotencyKeyReused)
      expect(d.error.error_code).toBe("IDEMPOTENCY_KEY_REUSED")
    }
  })

  it("a record 24 h old or older counts as new, whatever the content", () => {
    expect(decideIdempotency(record, "f1", later(DAY))).toEqual({ _tag: "New", expired: record })
    expect(decideIdempotency(record, "f2", later(DAY + 5))).toEqual({ _tag: "New", expired: record })
  })

  it("the ttl is an argument", () => {
    expect(decideIdempotency(record, "f1", later(60_000), "1 minute")._tag).toBe("New")
    expect(decideIdempotency(record, "f1", later(59_999), "1 minute")._tag).toBe("Replay")
  })
})

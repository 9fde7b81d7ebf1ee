import { Either, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { decodeRequest, SendMessageRequest, StoredJson, StoredString } from "../src/index.js"

describe("stored text refuses U+0000 (PostgreSQL cannot store it)", () => {
  it("StoredString", () => {
    expect(Either.isRight(Schema.decodeUnknownEither(StoredString)("fine"))).toBe(true)
    expect(Either.isLeft(Schema.decodeUnknownEither(StoredString)("bad\u0000"))).toBe(true)
  })

  it("StoredJson names the path of every offending string or key, at any depth", () => {
    const r = decodeRequest(Schema.Struct({ config: StoredJson }))({
      config: { a: ["ok", "x\u0000"], b: { "k\u0000": 1, c: "fine" } }
    })
    expect(Either.isLeft(r) && r.left.errors).toEqual({
      "config.a.1": ["The config.a.1 field must not contain the NUL character (U+0000)."],
      "config.b.k\u0000": ["The config.b.k\u0000 field must not contain the NUL character (U+0000)."]
    })
  })

  it("request text fields report it by path with their other rules", () => {
    const r = decodeRequest(SendMessageRequest)({ recipient: "+255712345678", sender_id: "TUMA", body: "a\u0000" })
    expect(Either.isLeft(r) && r.left.errors).toEqual({
      body: ["The body field must not contain the NUL character (U+0000)."]
    })
  })
})

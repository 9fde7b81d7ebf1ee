import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import * as NodeCrypto from "node:crypto"
import {
  hmacSha256Hex,
  randomBase64url,
  randomBytes,
  sha256Base64url,
  sha256Hex,
  timingSafeEqual
} from "../src/crypto.js"

describe("crypto without node:crypto", () => {
  it("SHA-256: the FIPS 180-4 vectors, and node's digest for any text", () => {
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    FastCheck.assert(FastCheck.property(FastCheck.string({ unit: "binary" }), (s) => {
      expect(sha256Hex(s)).toBe(NodeCrypto.createHash("sha256").update(s, "utf8").digest("hex"))
      expect(sha256Base64url(s)).toBe(NodeCrypto.createHash("sha256").update(s, "utf8").digest("base64url"))
    }))
  })

  it("HMAC-SHA256: RFC 4231 test case 2, and node's MAC for any key and text", () => {
    expect(hmacSha256Hex("Jefe", "what do ya want for nothing?")).toBe(
      "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
    )
    FastCheck.assert(FastCheck.property(FastCheck.string(), FastCheck.string(), (key, body) => {
      expect(hmacSha256Hex(key, body)).toBe(NodeCrypto.createHmac("sha256", key).update(body).digest("hex"))
    }))
  })

  it("timingSafeEqual: equal bytes only, any length", () => {
    expect(timingSafeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 3]))).toBe(true)
    expect(timingSafeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 4]))).toBe(false)
    expect(timingSafeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2]))).toBe(false)
    expect(timingSafeEqual(new Uint8Array([]), new Uint8Array([]))).toBe(true)
  })

  it("random bytes: the length asked (over getRandomValues' 64 KiB limit too), not repeated", () => {
    expect(randomBytes(100_000).length).toBe(100_000)
    const big = randomBytes(100_000)
    // the second 64 KiB block is filled too (a zero run of 30,000 bytes is not chance)
    expect(big.subarray(70_000).some((b) => b !== 0)).toBe(true)
    expect(randomBase64url(32)).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(randomBase64url(32)).not.toBe(randomBase64url(32))
  })
})

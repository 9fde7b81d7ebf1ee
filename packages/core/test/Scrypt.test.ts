import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { scryptSync } from "node:crypto"
import { hashPassword, verifyPassword } from "../src/portal/Passwords.js"
import { nativeScrypt, pureScrypt, Scrypt } from "../src/ports/Scrypt.js"

const params = { N: 1 << 10, r: 8, p: 1, keyLength: 64 }
const salt = new TextEncoder().encode("0123456789abcdef")
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex")
const pure = Layer.succeed(Scrypt, { derive: pureScrypt })

describe("Scrypt: the runtime's native scrypt and the pure one derive the same keys", () => {
  it.live("both answer node's scrypt key", () =>
    Effect.gen(function*() {
      const expected = scryptSync("pässwörd", salt, 64, { N: params.N, r: params.r, p: params.p }).toString("hex")
      expect(hex(yield* pureScrypt("pässwörd", salt, params))).toBe(expected)
      expect(nativeScrypt).toBeDefined()
      expect(hex(yield* nativeScrypt!("pässwörd", salt, params))).toBe(expected)
    }))

  it.live("a password stored with one verifies with the other; a wrong one with neither", () =>
    Effect.gen(function*() {
      const stored = yield* hashPassword("correct horse battery")
      expect(yield* verifyPassword("correct horse battery", stored).pipe(Effect.provide(pure))).toBe(true)
      expect(yield* verifyPassword("wrong horse battery", stored).pipe(Effect.provide(pure))).toBe(false)
      const fromPure = yield* hashPassword("correct horse battery").pipe(Effect.provide(pure))
      expect(yield* verifyPassword("correct horse battery", fromPure)).toBe(true)
      expect(yield* verifyPassword("wrong horse battery", fromPure)).toBe(false)
    }), 60_000)
})

/**
 * Port of scrypt, the key derivation of stored passwords (`portal/Passwords.ts`). Core imports no
 * platform module (lint refuses `node:*` here), so the default adapter asks the runtime for its
 * native scrypt (`process.getBuiltinModule("node:crypto")`: Node ≥ 20.16, Deno, Bun) and, on a
 * runtime without one, derives with the pure implementation of `@noble/hashes` (the same keys,
 * about half the speed). Provide another `Scrypt` to replace both (a test, another platform).
 */
import { scryptAsync } from "@noble/hashes/scrypt.js"
import { Context, Effect } from "effect"

/** The cost and length of a derivation (`N` a power of two). */
export interface ScryptParams {
  readonly N: number
  readonly r: number
  readonly p: number
  readonly keyLength: number
}

/** Derives the key of `password` (UTF-8) and `salt`. */
export type Derive = (password: string, salt: Uint8Array, params: ScryptParams) => Effect.Effect<Uint8Array>

/** Memory a derivation may take: its working set (128·N·r bytes) and room to spare. */
const maxMemory = ({ N, r }: ScryptParams): number => 256 * N * r + 1024 * 1024

/** scrypt in pure JavaScript (`@noble/hashes`), yielding to other fibers while it works. */
export const pureScrypt: Derive = (password, salt, params) =>
  Effect.promise(() =>
    scryptAsync(password, salt, {
      N: params.N,
      r: params.r,
      p: params.p,
      dkLen: params.keyLength,
      maxmem: maxMemory(params)
    })
  )

const platform = typeof process === "object" && typeof process.getBuiltinModule === "function"
  ? process.getBuiltinModule("node:crypto")
  : undefined

/** The runtime's native scrypt (off the event loop), or undefined on a runtime without one. */
export const nativeScrypt: Derive | undefined = platform === undefined ?
  undefined :
  (password, salt, params) =>
    Effect.async((resume) => {
      platform.scrypt(
        password,
        salt,
        params.keyLength,
        { N: params.N, r: params.r, p: params.p, maxmem: maxMemory(params) },
        (e, key) => resume(e ? Effect.die(e) : Effect.succeed(new Uint8Array(key)))
      )
    })

/** scrypt: the runtime's native one when it has one, else the pure one. */
export class Scrypt extends Context.Reference<Scrypt>()("@tuma/core/Scrypt", {
  defaultValue: (): { readonly derive: Derive } => ({ derive: nativeScrypt ?? pureScrypt })
}) {}

/**
 * The `Ids` port: where every new id comes from, so tests can control ids.
 *
 * - `uuidV7`: time-ordered (RFC 9562), used for rows listed newest first (messages, campaigns).
 *   Its timestamp is read from Effect's `Clock`, so it follows `TestClock` in tests.
 * - `uuidV4`: random, for everything else.
 *
 * `Ids.layer` is the production generator (crypto random). `Ids.layerSequential` yields
 * predictable v4-shaped ids (`00000000-0000-4000-8000-000000000001`, …) for tests.
 */
import { Clock, Context, Effect, Layer } from "effect"

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"))

const hex = (b: Uint8Array) =>
  HEX[b[0]] + HEX[b[1]] + HEX[b[2]] + HEX[b[3]] + "-" + HEX[b[4]] + HEX[b[5]] + "-" + HEX[b[6]] + HEX[b[7]] + "-" +
  HEX[b[8]] + HEX[b[9]] + "-" + HEX[b[10]] + HEX[b[11]] + HEX[b[12]] + HEX[b[13]] + HEX[b[14]] + HEX[b[15]]

/** Random bytes drawn 4 KiB at a time (one `getRandomValues` call per ~400 ids, not one per id). */
const pool = new Uint8Array(4096)
let poolAt = pool.length
const randomBytes10 = (): Uint8Array => {
  if (poolAt + 10 > pool.length) {
    crypto.getRandomValues(pool)
    poolAt = 0
  }
  poolAt += 10
  return pool.subarray(poolAt - 10, poolAt)
}

/** uuid v7 from a millisecond timestamp and 10 random bytes. */
export const uuidV7FromTime = (millis: number, random: Uint8Array = randomBytes10()) => {
  const b = new Uint8Array(16)
  let t = Math.max(0, Math.floor(millis))
  for (let i = 5; i >= 0; i--) {
    b[i] = t % 256
    t = Math.floor(t / 256)
  }
  b.set(random.subarray(0, 10), 6)
  b[6] = 0x70 | (b[6] & 0x0f)
  b[8] = 0x80 | (b[8] & 0x3f)
  return hex(b)
}

/**
 * Port: where ids come from (uuid v4, time-ordered v7). `Ids.layer` draws random ones; `Ids.layerSequential`
 * is predictable, for tests.
 */
export class Ids extends Context.Tag("@tuma/core/Ids")<Ids, {
  readonly uuidV4: Effect.Effect<string>
  readonly uuidV7: Effect.Effect<string>
  /** `n` v7 ids at once (one clock read): a 1,000-recipient campaign asks once, not 1,000 times. */
  readonly uuidV7Batch: (n: number) => Effect.Effect<ReadonlyArray<string>>
}>() {
  /** Production ids: crypto-random v4, v7 stamped with `Clock`. */
  static readonly layer: Layer.Layer<Ids> = Layer.succeed(Ids, {
    uuidV4: Effect.sync(() => crypto.randomUUID()),
    uuidV7: Effect.map(Clock.currentTimeMillis, (now) => uuidV7FromTime(now)),
    uuidV7Batch: (n) =>
      Effect.map(Clock.currentTimeMillis, (now) => Array.from({ length: n }, () => uuidV7FromTime(now)))
  })

  /** Deterministic ids for tests: a counter rendered as a valid uuid (v4 and v7 share it). */
  static readonly layerSequential = (start = 1): Layer.Layer<Ids> =>
    Layer.sync(Ids, () => {
      let n = start
      const next = Effect.sync(() => `00000000-0000-4000-8000-${(n++).toString(16).padStart(12, "0")}`)
      return {
        uuidV4: next,
        uuidV7: next,
        uuidV7Batch: (count) => Effect.all(Array.from({ length: count }, () => next))
      }
    })
}

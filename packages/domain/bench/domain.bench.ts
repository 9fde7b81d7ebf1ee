/**
 * `pnpm bench:domain`: median time to analyse and price 10,000 mixed bodies (GSM-7, smart-converted,
 * Unicode; 1–1600 characters; seeded) against the floor, a plain code-point loop over the same bodies,
 * measured in the same run. Target: within 3x of the floor.
 *
 * Options (environment): BENCH_SEED (default 2025), BENCH_BODIES (10000), BENCH_ROUNDS (21).
 */
import { Either } from "effect"
import { analyzeBody, campaignTotals, checkCampaignBalance, type PricedRecipient } from "../src/index.js"

const SEED = Number(process.env.BENCH_SEED ?? 2025)
const BODIES = Number(process.env.BENCH_BODIES ?? 10_000)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 21)
const WARMUP = 5

/** mulberry32: a small seeded generator, so every run measures the same bodies. */
const rng = (() => {
  let a = SEED >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
})()
const pick = <A>(xs: ReadonlyArray<A>): A => xs[Math.floor(rng() * xs.length)]

const GSM_WORDS = [
  "Hello",
  "your",
  "code",
  "is",
  "4821.",
  "Payment",
  "of",
  "TZS",
  "12,500",
  "received",
  "-",
  "thank",
  "you!",
  "Karibu",
  "sana",
  "{ref}",
  "€20",
  "café",
  "niño",
  "Ärger",
  "100%",
  "@home",
  "\n"
]
const SMART = [
  "“quoted”",
  "it’s",
  "—",
  "…",
  "\u00A0",
  "Łódź",
  "garçon",
  "Ősz",
  "😀",
  "👍🏽",
  "🇹🇿",
  "‘x’",
  "–",
  "\u200B"
]
const SCRIPT = ["Привет", "мир", "مرحبا", "بالعالم", "你好", "世界", "नमस्ते", "“Ура”", "😀", "Спасибо", "شكرا"]

type Kind = "gsm" | "smart" | "unicode"
const makeBody = (kind: Kind): string => {
  const target = 1 + Math.floor(rng() * 1600)
  let s = ""
  while (s.length < target) {
    const r = rng()
    const word = kind === "gsm"
      ? pick(GSM_WORDS)
      : kind === "smart"
      ? (r < 0.15 ? pick(SMART) : pick(GSM_WORDS))
      : (r < 0.6 ? pick(SCRIPT) : pick(GSM_WORDS))
    s += s.length === 0 ? word : " " + word
  }
  // Cut at a code point boundary.
  const cut = Array.from(s).slice(0, target).join("")
  return cut
}

const kinds: Array<Kind> = []
const bodies: Array<string> = []
for (let i = 0; i < BODIES; i++) {
  const r = rng()
  const kind: Kind = r < 0.5 ? "gsm" : r < 0.75 ? "smart" : "unicode"
  kinds.push(kind)
  bodies.push(makeBody(kind))
}
const countries = bodies.map(() => pick(["TZ", "KE", "UG", "RW"]))
const balances = { TZ: 10_000_000, KE: 10_000_000, UG: 10_000_000, RW: 10_000_000 }

let sink = 0

const floor = (subset: ReadonlyArray<string>): number => {
  let acc = 0
  for (const s of subset) {
    for (let i = 0; i < s.length; i++) {
      const cp = s.codePointAt(i)!
      if (cp > 0xffff) i++
      acc += cp
    }
  }
  return acc
}

const analyseAndPrice = (subset: ReadonlyArray<string>, subsetCountries: ReadonlyArray<string>): number => {
  const priced: Array<PricedRecipient> = new Array(subset.length)
  for (let i = 0; i < subset.length; i++) {
    const { encoding, text } = analyzeBody(subset[i])
    priced[i] = { country: subsetCountries[i], units: encoding.segments }
    // Read the text, as a caller that stores or sends it does (flattens a built string).
    sink += text.length > 0 ? text.charCodeAt(text.length >> 1) : 0
  }
  const result = checkCampaignBalance(campaignTotals(priced), balances)
  return Either.isRight(result) ? result.right.units : -1
}

const median = (xs: Array<number>): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}

const measure = (f: () => number): number => {
  const samples: Array<number> = []
  for (let r = 0; r < WARMUP + ROUNDS; r++) {
    const t0 = performance.now()
    sink += f()
    const t = performance.now() - t0
    if (r >= WARMUP) samples.push(t)
  }
  return median(samples)
}

/** Interleaved rounds, so both sides see the same machine state. */
const compare = (subset: ReadonlyArray<string>, subsetCountries: ReadonlyArray<string>) => {
  const work: Array<number> = []
  const base: Array<number> = []
  for (let r = 0; r < WARMUP + ROUNDS; r++) {
    let t0 = performance.now()
    sink += floor(subset)
    const b = performance.now() - t0
    t0 = performance.now()
    sink += analyseAndPrice(subset, subsetCountries)
    const w = performance.now() - t0
    if (r >= WARMUP) {
      base.push(b)
      work.push(w)
    }
  }
  return { work: median(work), floor: median(base) }
}

const fmt = (ms: number) => `${ms.toFixed(2).padStart(8)} ms`
const chars = bodies.reduce((a, b) => a + b.length, 0)
console.log(
  `domain bench: ${BODIES} bodies (seed ${SEED}), ${chars} UTF-16 units, ${ROUNDS} rounds after ${WARMUP} warm-up`
)
const all = compare(bodies, countries)
console.log(
  `  analyse + price (all)      ${fmt(all.work)}   floor ${fmt(all.floor)}   ratio ${
    (all.work / all.floor).toFixed(2)
  }x`
)
for (const kind of ["gsm", "smart", "unicode"] as const) {
  const idx = kinds.flatMap((k, i) => (k === kind ? [i] : []))
  const part = compare(idx.map((i) => bodies[i]), idx.map((i) => countries[i]))
  console.log(
    `  ${(kind + ` (${idx.length})`).padEnd(26)} ${fmt(part.work)}   floor ${fmt(part.floor)}   ratio ${
      (part.work / part.floor).toFixed(2)
    }x`
  )
}
const perBody = measure(() => {
  let n = 0
  for (const b of bodies) n += analyzeBody(b, { partSizing: "concatenated" }).encoding.segments
  return n
})
console.log(`  analyse only, concatenated ${fmt(perBody)}   (${((perBody * 1000) / BODIES).toFixed(2)} µs a body)`)
console.log(`  target: within 3x of the floor -> ${all.work / all.floor <= 3 ? "met" : "NOT met"}`)
if (sink === 42) console.log("")

/**
 * The exact decimal arithmetic of templates (template.ts): rationals over bigint, parsed from
 * plain decimal text and printed without exponent, rounded half-even to
 * `TEMPLATE_DIVISION_DECIMALS` places when a result has no finite decimal expansion.
 */

/** Decimal places kept when a quotient has no finite decimal expansion (rounded half-even). */
export const TEMPLATE_DIVISION_DECIMALS = 10

export interface Rational {
  readonly n: bigint
  readonly d: bigint // always > 0
}

export const ZERO = BigInt(0)
const ONE = BigInt(1)
const TWO = BigInt(2)
const FIVE = BigInt(5)
const TEN = BigInt(10)

const absBig = (x: bigint): bigint => (x < ZERO ? -x : x)

const gcd = (a: bigint, b: bigint): bigint => {
  a = absBig(a)
  b = absBig(b)
  while (b !== ZERO) {
    const t = a % b
    a = b
    b = t
  }
  return a
}

export const rational = (n: bigint, d: bigint): Rational => {
  if (d < ZERO) {
    n = -n
    d = -d
  }
  if (d === ONE) return { n, d }
  const g = gcd(n, d)
  return g === ONE || g === ZERO ? { n, d } : { n: n / g, d: d / g }
}

const pow10 = (k: number): bigint => TEN ** BigInt(k)

/** Parses a plain decimal number (optional sign, optional fraction, optional exponent). */
const NUMBER_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,4}))?$/
const MAX_EXPONENT = 1000

export const parseDecimal = (text: string): Rational | undefined => {
  const m = NUMBER_TEXT.exec(text)
  if (m === null) return undefined
  const intPart = m[2] ?? ""
  const fracPart = m[3] ?? ""
  if (intPart === "" && fracPart === "") return undefined
  const exp = m[4] === undefined ? 0 : Number(m[4])
  if (Math.abs(exp) > MAX_EXPONENT) return undefined
  let n = BigInt(intPart + fracPart || "0")
  if (m[1] === "-") n = -n
  const scale = fracPart.length - exp
  return scale >= 0 ? rational(n, pow10(scale)) : rational(n * pow10(-scale), ONE)
}

/** Reads a template value as a number; `undefined` when it is not one. */
export const valueToRational = (value: string | number): Rational | undefined => {
  if (typeof value === "number") return Number.isFinite(value) ? parseDecimal(String(value)) : undefined
  return parseDecimal(value.trim())
}

/** True when the (reduced) denominator has no prime factor but 2 and 5. */
const terminates = (d: bigint): boolean => {
  while (d % TWO === ZERO) d /= TWO
  while (d % FIVE === ZERO) d /= FIVE
  return d === ONE
}

const printScaled = (negative: boolean, digits: bigint, scale: number): string => {
  let s = digits.toString()
  if (scale > 0) {
    if (s.length <= scale) s = "0".repeat(scale - s.length + 1) + s
    let int = s.slice(0, s.length - scale)
    let frac = s.slice(s.length - scale)
    let end = frac.length
    while (end > 0 && frac.charCodeAt(end - 1) === 48) end--
    frac = frac.slice(0, end)
    if (int === "") int = "0"
    s = frac === "" ? int : `${int}.${frac}`
  }
  return negative && s !== "0" ? `-${s}` : s
}

/** Prints a rational in plain decimal notation (see the module rules). */
export const formatRational = (r: Rational): string => {
  const negative = r.n < ZERO
  const a = absBig(r.n)
  if (r.d === ONE) return printScaled(negative, a, 0)
  if (terminates(r.d)) {
    // smallest k with d | 10^k
    let k = 0
    let p = ONE
    while (p % r.d !== ZERO) {
      p *= TEN
      k++
    }
    return printScaled(negative, (a * p) / r.d, k)
  }
  const scaled = a * pow10(TEMPLATE_DIVISION_DECIMALS)
  let q = scaled / r.d
  const twice = (scaled % r.d) * TWO
  if (twice > r.d || (twice === r.d && q % TWO === ONE)) q += ONE
  return printScaled(negative, q, TEMPLATE_DIVISION_DECIMALS)
}

/** Prints a number value of a plain tag without exponent (`1e21` → `1000000000000000000000`). */
export const formatNumberValue = (value: number): string => {
  if (!Number.isFinite(value)) return String(value)
  const s = String(value)
  if (s.indexOf("e") === -1) return s
  const r = parseDecimal(s)
  return r === undefined ? s : formatRational(r)
}

/**
 * Message templates (spec §4.6, decisions.md §16): `{tags}` filled per recipient and
 * `{= amount - paid }` arithmetic in exact decimal arithmetic.
 *
 * Compile once with {@link compileTemplate}, render many times with {@link renderCompiled}; or call
 * {@link renderTemplate} for one-off renders (it caches the last compiled templates).
 *
 * Rules (documented in packages/domain/README.md):
 * - A tag is `{name}` (spaces allowed inside the braces: `{ name }`). A name starts with a letter or
 *   `_` and continues with letters, digits, `_`, `.` or `-`, at most 64 characters. Names are
 *   matched case-insensitively against the value keys.
 * - A value that is missing, `null`, or a string that is empty or only whitespace removes the tag and
 *   one adjacent space: the space just before it in the finished text, otherwise the space just after
 *   it in the template. Only U+0020 counts as a space (line breaks are kept). Tags removed back to
 *   back (`{a}{b}`) count as one tag.
 * - `{= expression }` evaluates `+ - * /`, unary minus/plus, parentheses and decimal numbers over the
 *   values. Identifiers inside expressions use the tag-name rules without `-` (a `-` is always
 *   minus). When any operand has no value the expression is removed like a missing tag. A value that
 *   is not a number (`12`, `-3.50`, ` 7 `, `1e3` are numbers; `1,000`, `abc` are not) or a division by
 *   zero fails with {@link TagExpressionInvalid}; so does a syntax error (at compile time).
 * - Arithmetic is exact (rationals over bigint). A result with a finite decimal expansion is printed
 *   exactly; any other result is rounded half-even to 10 decimal places. Printing never uses an
 *   exponent and never leaves trailing zeros (`2.50` → `2.5`, `-0` → `0`).
 * - Anything else with braces stays as typed: `{`, `{}`, `{ not a tag`, `{"a": 1}`, `{1}`, `{{x}}`
 *   renders `{` + the value of `x` + `}`.
 *
 * The exact decimal arithmetic (rationals, parsing and printing numbers) is in templateNumber.ts;
 * the expression parser and evaluator and the templates are here.
 */
import { Either } from "effect"
import { TagExpressionInvalid } from "./errors.js"
import {
  formatNumberValue,
  formatRational,
  parseDecimal,
  type Rational,
  rational,
  TEMPLATE_DIVISION_DECIMALS as DIVISION_DECIMALS,
  valueToRational,
  ZERO
} from "./templateNumber.js"

/** Values for one recipient. `null`/`undefined` are accepted and mean "no value". */
export type TemplateValues = Readonly<Record<string, string | number | null | undefined>>

/** Decimal places kept when a quotient has no finite decimal expansion (rounded half-even). */
export const TEMPLATE_DIVISION_DECIMALS = DIVISION_DECIMALS

/** Longest tag name accepted. */
export const TEMPLATE_TAG_NAME_MAX = 64

// ---------------------------------------------------------------------------------------------
// Expressions
// ---------------------------------------------------------------------------------------------

type Expr =
  | { readonly _tag: "Num"; readonly value: Rational }
  | { readonly _tag: "Var"; readonly name: string; readonly key: string }
  | { readonly _tag: "Neg"; readonly expr: Expr }
  | { readonly _tag: "Bin"; readonly op: "+" | "-" | "*" | "/"; readonly left: Expr; readonly right: Expr }

class ExprSyntaxError {
  constructor(readonly reason: string) {}
}

const IDENT_START = /[A-Za-z_]/
const IDENT_PART = /[A-Za-z0-9_.]/
const DIGIT = /[0-9]/

const parseExpression = (src: string): Expr => {
  let i = 0
  const skip = () => {
    while (i < src.length && (src[i] === " " || src[i] === "\t")) i++
  }
  const peek = (): string | undefined => {
    skip()
    return src[i]
  }
  const parsePrimary = (): Expr => {
    const c = peek()
    if (c === undefined) throw new ExprSyntaxError("the expression ends where a number or a name was expected")
    if (c === "(") {
      i++
      const e = parseSum()
      if (peek() !== ")") throw new ExprSyntaxError("a closing parenthesis is missing")
      i++
      return e
    }
    if (DIGIT.test(c) || (c === "." && DIGIT.test(src[i + 1] ?? ""))) {
      const start = i
      while (i < src.length && DIGIT.test(src[i]!)) i++
      if (src[i] === ".") {
        i++
        while (i < src.length && DIGIT.test(src[i]!)) i++
      }
      const value = parseDecimal(src.slice(start, i))
      if (value === undefined) throw new ExprSyntaxError(`"${src.slice(start, i)}" is not a number`)
      return { _tag: "Num", value }
    }
    if (IDENT_START.test(c)) {
      const start = i
      while (i < src.length && IDENT_PART.test(src[i]!)) i++
      const name = src.slice(start, i)
      if (name.length > TEMPLATE_TAG_NAME_MAX) throw new ExprSyntaxError(`the name "${name}" is too long`)
      return { _tag: "Var", name, key: name.toLowerCase() }
    }
    throw new ExprSyntaxError(`unexpected "${c}"`)
  }
  const parseUnary = (): Expr => {
    const c = peek()
    if (c === "-") {
      i++
      return { _tag: "Neg", expr: parseUnary() }
    }
    if (c === "+") {
      i++
      return parseUnary()
    }
    return parsePrimary()
  }
  /** A left-associative level of binary operators `ops` over operands parsed by `operand`. */
  const binaryLevel = <Op extends "+" | "-" | "*" | "/">(ops: ReadonlyArray<Op>, operand: () => Expr) => (): Expr => {
    let left = operand()
    for (;;) {
      const op = ops.find((o) => o === peek())
      if (op === undefined) return left
      i++
      left = { _tag: "Bin", op, left, right: operand() }
    }
  }
  const parseProduct = binaryLevel(["*", "/"], parseUnary)
  const parseSum = binaryLevel(["+", "-"], parseProduct)
  const e = parseSum()
  const rest = peek()
  if (rest !== undefined) throw new ExprSyntaxError(`unexpected "${rest}"`)
  return e
}

/** The expression of the tag `source`, or why it is invalid. */
const parseTag = (expression: string, source: string): Either.Either<Expr, TagExpressionInvalid> => {
  try {
    return Either.right(parseExpression(expression))
  } catch (e) {
    if (e instanceof ExprSyntaxError) return Either.left(invalid(source, e.reason))
    throw e
  }
}

const collectVars = (e: Expr, into: Set<string>): Set<string> => {
  switch (e._tag) {
    case "Num":
      return into
    case "Var":
      into.add(e.key)
      return into
    case "Neg":
      return collectVars(e.expr, into)
    case "Bin":
      collectVars(e.left, into)
      return collectVars(e.right, into)
  }
}

class EvalError {
  constructor(readonly reason: string) {}
}

const evaluate = (e: Expr, lookup: (key: string) => string | number | null | undefined): Rational => {
  switch (e._tag) {
    case "Num":
      return e.value
    case "Var": {
      const raw = lookup(e.key)
      const r = hasValue(raw) ? valueToRational(raw) : undefined
      if (r === undefined) throw new EvalError(`the value of "${e.name}" (${JSON.stringify(raw)}) is not a number`)
      return r
    }
    case "Neg": {
      const r = evaluate(e.expr, lookup)
      return { n: -r.n, d: r.d }
    }
    case "Bin": {
      const a = evaluate(e.left, lookup)
      const b = evaluate(e.right, lookup)
      switch (e.op) {
        case "+":
          return rational(a.n * b.d + b.n * a.d, a.d * b.d)
        case "-":
          return rational(a.n * b.d - b.n * a.d, a.d * b.d)
        case "*":
          return rational(a.n * b.n, a.d * b.d)
        case "/":
          if (b.n === ZERO) throw new EvalError("division by zero")
          return rational(a.n * b.d, a.d * b.n)
      }
    }
  }
}

/**
 * Evaluates an arithmetic expression (the text between `{=` and `}`) with the given values and
 * prints the result by the template rules. Missing operands are an error here (unlike in templates,
 * where they remove the tag).
 */
export const evaluateExpression = (
  expression: string,
  values: TemplateValues = {}
): Either.Either<string, TagExpressionInvalid> => {
  const source = `{=${expression}}`
  const parsed = parseTag(expression, source)
  if (Either.isLeft(parsed)) return Either.left(parsed.left)
  const expr = parsed.right
  const map = lowerKeys(values)
  for (const key of collectVars(expr, new Set())) {
    if (!hasValue(map.get(key))) return Either.left(invalid(source, `"${key}" has no value`))
  }
  try {
    return Either.right(formatRational(evaluate(expr, (k) => map.get(k))))
  } catch (e) {
    if (e instanceof EvalError) return Either.left(invalid(source, e.reason))
    throw e
  }
}

const invalid = (source: string, reason: string): TagExpressionInvalid =>
  new TagExpressionInvalid({ message: `The tag ${source} is invalid: ${reason}.`, expression: source })

// ---------------------------------------------------------------------------------------------
// Templates
// ---------------------------------------------------------------------------------------------

type Part =
  | { readonly _tag: "Text"; readonly text: string }
  | { readonly _tag: "Tag"; readonly source: string; readonly key: string }
  | {
    readonly _tag: "Expr"
    readonly source: string
    readonly expr: Expr
    readonly keys: ReadonlyArray<string>
  }

/** A template parsed once, ready to render for many recipients. */
export interface CompiledTemplate {
  readonly source: string
  /** Lower-cased names used by tags and expressions, in order of first use. */
  readonly names: ReadonlyArray<string>
  /** True when the template has at least one tag or expression. */
  readonly hasTags: boolean
  /** @internal */
  readonly parts: ReadonlyArray<Part>
}

const TAG = /\{ *([A-Za-z_][A-Za-z0-9_.-]*) *\}/y

/** Parses a template; fails only on an `{= … }` expression with a syntax error. */
export const compileTemplate = (template: string): Either.Either<CompiledTemplate, TagExpressionInvalid> => {
  const parts: Array<Part> = []
  const names = new Set<string>()
  let text = ""
  let i = 0
  let last = 0
  const flush = (upto: number) => {
    text += template.slice(last, upto)
    if (text !== "") parts.push({ _tag: "Text", text })
    text = ""
  }
  while (true) {
    const open = template.indexOf("{", i)
    if (open === -1) break
    i = open + 1
    if (template.charCodeAt(open + 1) === 61 /* = */) {
      const close = template.indexOf("}", open + 2)
      if (close === -1) continue
      const body = template.slice(open + 2, close)
      if (body.indexOf("{") !== -1 || body.indexOf("\n") !== -1) continue
      const source = template.slice(open, close + 1)
      const parsed = parseTag(body, source)
      if (Either.isLeft(parsed)) return Either.left(parsed.left)
      const expr = parsed.right
      const keys = [...collectVars(expr, new Set())]
      for (const k of keys) names.add(k)
      flush(open)
      parts.push({ _tag: "Expr", source, expr, keys })
      i = last = close + 1
      continue
    }
    TAG.lastIndex = open
    const m = TAG.exec(template)
    if (m === null || m[1]!.length > TEMPLATE_TAG_NAME_MAX) continue
    const key = m[1]!.toLowerCase()
    names.add(key)
    flush(open)
    parts.push({ _tag: "Tag", source: m[0], key })
    i = last = open + m[0].length
  }
  flush(template.length)
  return Either.right({ source: template, names: [...names], hasTags: parts.some((p) => p._tag !== "Text"), parts })
}

const hasValue = (v: string | number | null | undefined): v is string | number =>
  typeof v === "number" || (typeof v === "string" && v.trim() !== "")

const lowerKeys = (values: TemplateValues): Map<string, string | number | null | undefined> => {
  const map = new Map<string, string | number | null | undefined>()
  for (const k in values) {
    if (Object.prototype.hasOwnProperty.call(values, k)) map.set(k.toLowerCase(), values[k])
  }
  return map
}

/**
 * Renders a compiled template for one recipient. Value keys are matched case-insensitively; when two
 * keys differ only by case, the later one (in object order) wins.
 */
export const renderCompiled = (
  compiled: CompiledTemplate,
  values: TemplateValues
): Either.Either<string, TagExpressionInvalid> => {
  const parts = compiled.parts
  if (!compiled.hasTags) return Either.right(compiled.source)
  const map = lowerKeys(values)
  const out: Array<string> = []
  let dropLeadingSpace = false
  let previousRemoved = false
  for (let p = 0; p < parts.length; p++) {
    const part = parts[p]!
    let piece: string | undefined
    switch (part._tag) {
      case "Text": {
        const t = part.text
        piece = dropLeadingSpace && t.charCodeAt(0) === 32 ? t.slice(1) : t
        dropLeadingSpace = false
        previousRemoved = false
        if (piece !== "") out.push(piece)
        continue
      }
      case "Tag": {
        const v = map.get(part.key)
        if (hasValue(v)) piece = typeof v === "number" ? formatNumberValue(v) : v
        break
      }
      case "Expr": {
        let complete = true
        for (const k of part.keys) {
          if (!hasValue(map.get(k))) {
            complete = false
            break
          }
        }
        if (complete) {
          try {
            piece = formatRational(evaluate(part.expr, (k) => map.get(k)))
          } catch (e) {
            if (e instanceof EvalError) return Either.left(invalid(part.source, e.reason))
            throw e
          }
        }
        break
      }
    }
    if (piece !== undefined) {
      dropLeadingSpace = false
      previousRemoved = false
      if (piece !== "") out.push(piece)
      continue
    }
    // removed. Tags removed back to back ({a}{b}) act as one: only the first takes a space.
    if (previousRemoved) continue
    previousRemoved = true
    // one adjacent space: before it in the finished text, or else after it in the template
    const n = out.length
    const prev = n > 0 ? out[n - 1]! : ""
    if (prev.charCodeAt(prev.length - 1) === 32) {
      if (prev.length === 1) out.pop()
      else out[n - 1] = prev.slice(0, -1)
    } else {
      dropLeadingSpace = true
    }
  }
  return Either.right(out.join(""))
}

const cache = new Map<string, Either.Either<CompiledTemplate, TagExpressionInvalid>>()
const CACHE_MAX = 64

/**
 * Renders `template` with `values` (see the module rules). Compiled templates are cached (64 most
 * recent), so calling this per recipient is fine; {@link compileTemplate} + {@link renderCompiled}
 * make the compile step explicit.
 */
export const renderTemplate = (
  template: string,
  values: TemplateValues
): Either.Either<string, TagExpressionInvalid> => {
  let compiled = cache.get(template)
  if (compiled === undefined) {
    compiled = compileTemplate(template)
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!)
    cache.set(template, compiled)
  }
  return Either.isLeft(compiled) ? Either.left(compiled.left) : renderCompiled(compiled.right, values)
}

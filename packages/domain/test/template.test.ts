import { describe, expect, it } from "@effect/vitest"
import { BigDecimal, Either, FastCheck as fc } from "effect"
import {
  compileTemplate,
  evaluateExpression,
  renderCompiled,
  renderTemplate,
  TagExpressionInvalid,
  type TemplateValues
} from "../src/index.js"

const render = (template: string, values: TemplateValues = {}) => Either.getOrThrow(renderTemplate(template, values))
const failure = (template: string, values: TemplateValues = {}) => {
  const r = renderTemplate(template, values)
  if (Either.isRight(r)) throw new Error(`expected a failure, got ${JSON.stringify(r.right)}`)
  return r.left
}

describe("renderTemplate: tags", () => {
  it("fills tags, names case-insensitive both ways", () => {
    expect(render("Hello {name}!", { name: "Asha" })).toBe("Hello Asha!")
    expect(render("Hello {NAME}!", { name: "Asha" })).toBe("Hello Asha!")
    expect(render("Hello {name}!", { Name: "Asha" })).toBe("Hello Asha!")
    expect(render("{a}{A}{a}", { A: "x" })).toBe("xxx")
  })

  it("when keys differ only by case, the later key wins", () => {
    expect(render("{name}", { Name: "first", name: "second" })).toBe("second")
  })

  it("accepts spaces inside the braces and the documented name characters", () => {
    const values = { first_name: "A", "last-name": "B", "user.city": "C", _x: "D", n2: "E" }
    expect(render("{ first_name } {last-name} {user.city} {_x} {n2}", values)).toBe("A B C D E")
  })

  it("prints number values without exponent", () => {
    expect(render("{a} {b} {c} {d}", { a: 1500, b: 0.1, c: 1e21, d: -2.5 })).toBe(
      "1500 0.1 1000000000000000000000 -2.5"
    )
  })

  it("a missing value removes the tag and the space before it", () => {
    expect(render("Hello {name}, welcome", {})).toBe("Hello, welcome")
    expect(render("Dear {title} {name}.", { name: "Asha" })).toBe("Dear Asha.")
  })

  it("at the start, the space after it goes instead", () => {
    expect(render("{title} Asha", {})).toBe("Asha")
  })

  it("removes exactly one space", () => {
    expect(render("Hi  {name}!", {})).toBe("Hi !")
    expect(render("{name}  there", {})).toBe(" there")
    expect(render("a {x} b", {})).toBe("a b")
  })

  it("two missing tags in a row each take their own space", () => {
    expect(render("Hi {a} {b} there", {})).toBe("Hi there")
    expect(render("{a} {b} there", {})).toBe("there")
    expect(render("Hi {a}{b} there", {})).toBe("Hi there")
    expect(render("{a}{b} there", {})).toBe("there")
    expect(render("Hi {a}{= b + 1 }", {})).toBe("Hi")
    expect(render("Hi {a}{b}!", { b: "x" })).toBe("Hix!")
  })

  it("empty, whitespace-only and null values count as missing", () => {
    expect(render("Hello {name} there", { name: "" })).toBe("Hello there")
    expect(render("Hello {name} there", { name: "   " })).toBe("Hello there")
    expect(render("Hello {name} there", { name: null })).toBe("Hello there")
    expect(render("Hello {name} there", { name: 0 })).toBe("Hello 0 there")
  })

  it("only U+0020 is a space: line breaks stay", () => {
    expect(render("Hi\n{name} there", {})).toBe("Hi\nthere")
    expect(render("Hi\t{name}\nthere", {})).toBe("Hi\t\nthere")
  })

  it("braces that do not form a tag stay as typed", () => {
    const v = { name: "Asha", x: "2" }
    expect(render("{", v)).toBe("{")
    expect(render("}", v)).toBe("}")
    expect(render("{}", v)).toBe("{}")
    expect(render("{ not a tag", v)).toBe("{ not a tag")
    expect(render("{not a tag}", v)).toBe("{not a tag}")
    expect(render("{\"a\": 1, \"b\": [1, 2]}", v)).toBe("{\"a\": 1, \"b\": [1, 2]}")
    expect(render("{1}", v)).toBe("{1}")
    expect(render("{{name}}", v)).toBe("{Asha}")
    expect(render("{=", v)).toBe("{=")
    expect(render("{= 1 {x} }", v)).toBe("{= 1 2 }")
    expect(render("{" + "a".repeat(65) + "}", v)).toBe("{" + "a".repeat(65) + "}")
  })

  it("a template without tags renders as is", () => {
    expect(render("plain text, no tags", { name: "x" })).toBe("plain text, no tags")
  })
})

describe("renderTemplate: arithmetic", () => {
  it("evaluates with exact decimals", () => {
    expect(render("You owe {= amount - paid } TZS", { amount: "12000", paid: 2500.5 })).toBe("You owe 9499.5 TZS")
    expect(render("{= 0.1 + 0.2 }")).toBe("0.3")
    expect(render("{= 1.10 * 3 }")).toBe("3.3")
    expect(render("{= 2.50 * 2 }")).toBe("5")
    expect(render("{= 10 / 4 }")).toBe("2.5")
    expect(render("{= 1 / 1024 }")).toBe("0.0009765625")
    expect(render("{= 0.00000000005 * 3 }")).toBe("0.00000000015")
  })

  it("keeps operator precedence, associativity, parentheses and unary signs", () => {
    expect(render("{= 2 + 3 * 4 }")).toBe("14")
    expect(render("{= (2 + 3) * 4 }")).toBe("20")
    expect(render("{= 1 - 1 - 1 }")).toBe("-1")
    expect(render("{= 8 / 2 / 2 }")).toBe("2")
    expect(render("{= -(2 + 3) * 2 }")).toBe("-10")
    expect(render("{= --3 }")).toBe("3")
    expect(render("{= +3 - -2 }")).toBe("5")
    expect(render("{= .5 + 1.}")).toBe("1.5")
  })

  it("divides exactly; a quotient without a finite expansion is rounded to 10 decimals", () => {
    expect(render("{= 1 / 3 }")).toBe("0.3333333333")
    expect(render("{= 2 / 3 }")).toBe("0.6666666667")
    expect(render("{= -2 / 3 }")).toBe("-0.6666666667")
    expect(render("{= 1 / 3 * 3 }")).toBe("1")
    expect(render("{= 100 / 7 }")).toBe("14.2857142857")
  })

  it("prints without trailing zeros, exponents or negative zero", () => {
    expect(render("{= 1.500 + 0 }")).toBe("1.5")
    expect(render("{= 100 * 100 }")).toBe("10000")
    expect(render("{= 0 * -1 }")).toBe("0")
    expect(render("{= a * 1 }", { a: 1e21 })).toBe("1000000000000000000000")
    expect(render("{= a }", { a: "1e-7" })).toBe("0.0000001")
  })

  it("names in expressions are case-insensitive and `-` is always minus", () => {
    expect(render("{= Amount-PAID }", { amount: 10, paid: 4 })).toBe("6")
  })

  it("accepts numeric strings with spaces, signs and exponents", () => {
    expect(render("{= a + b + c }", { a: " 7 ", b: "-3.50", c: "1e3" })).toBe("1003.5")
  })

  it("an expression with an operand lacking a value is removed with one space", () => {
    expect(render("Balance {= amount - paid } TZS", { amount: 10 })).toBe("Balance TZS")
    expect(render("Balance {= amount - paid } TZS", { amount: 10, paid: "" })).toBe("Balance TZS")
    expect(render("{= amount } left", {})).toBe("left")
  })

  it("a bare-number recipient loses every tag, expressions included", () => {
    expect(render("Dear {name}, pay {= amount - paid } by {date}.", {})).toBe("Dear, pay by.")
  })

  it("a non-numeric operand is TAG_EXPRESSION_INVALID", () => {
    for (const bad of ["abc", "1,000", "12abc", "--1", "0x10", "Infinity"]) {
      const e = failure("Pay {= amount - 1 }", { amount: bad })
      expect(e).toBeInstanceOf(TagExpressionInvalid)
      expect(e.error_code).toBe("TAG_EXPRESSION_INVALID")
      expect(e.expression).toBe("{= amount - 1 }")
      expect(e.message).toContain("amount")
    }
    expect(failure("{= a }", { a: Number.NaN }).error_code).toBe("TAG_EXPRESSION_INVALID")
  })

  it("division by zero is TAG_EXPRESSION_INVALID", () => {
    expect(failure("{= a / b }", { a: 1, b: 0 }).message).toContain("division by zero")
    expect(failure("{= a / b }", { a: 1, b: "0.00" }).message).toContain("division by zero")
    expect(failure("{= 1 / (2 - 2) }").error_code).toBe("TAG_EXPRESSION_INVALID")
  })

  it("a syntax error fails compilation", () => {
    for (const bad of ["{= 2 + }", "{= 2 ** 3 }", "{=}", "{= (1 + 2 }", "{= 1 2 }", "{= a % b }", "{= 1..2 }"]) {
      const r = compileTemplate(`x ${bad} y`)
      expect(Either.isLeft(r), bad).toBe(true)
      if (Either.isLeft(r)) {
        expect(r.left.error_code).toBe("TAG_EXPRESSION_INVALID")
        expect(r.left.expression).toBe(bad)
      }
    }
  })
})

describe("compileTemplate / evaluateExpression", () => {
  it("compiles once, renders many, lists the names used", () => {
    const compiled = Either.getOrThrow(compileTemplate("Hi {Name}, {= Amount - paid } due {name}"))
    expect(compiled.names).toEqual(["name", "amount", "paid"])
    expect(compiled.hasTags).toBe(true)
    const a = Either.getOrThrow(renderCompiled(compiled, { name: "A", amount: 3, paid: 1 }))
    const b = Either.getOrThrow(renderCompiled(compiled, { name: "B" }))
    expect(a).toBe("Hi A, 2 due A")
    expect(b).toBe("Hi B, due B")
  })

  it("renders 1000 recipients from one compiled template", () => {
    const compiled = Either.getOrThrow(compileTemplate("Dear {name}, balance {= amount - paid } TZS."))
    const out = Array.from(
      { length: 1000 },
      (_, i) => Either.getOrThrow(renderCompiled(compiled, { name: `R${i}`, amount: i * 1.5, paid: "0.25" }))
    )
    expect(out[999]).toBe("Dear R999, balance 1498.25 TZS.")
  })

  it("evaluateExpression answers the printed result or a failure for missing names", () => {
    expect(Either.getOrThrow(evaluateExpression(" a * (b + 1) ", { a: "2", b: 0.5 }))).toBe("3")
    const missing = evaluateExpression("a + b", { a: 1 })
    expect(Either.isLeft(missing) && missing.left.message).toContain("\"b\" has no value")
  })
})

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

const nameArb = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_.-]{0,10}$/)
const textArb = fc.string({ maxLength: 12 }).map((s) => s.replace(/[{}]/g, ""))
const valueArb = fc.oneof(
  fc.string({ minLength: 1, maxLength: 10 }).map((s) => s.replace(/[{}]/g, "")).filter((s) => s.trim() !== ""),
  fc.integer({ min: -1_000_000, max: 1_000_000 })
)
const randomCase = (s: string, flips: ReadonlyArray<boolean>) =>
  [...s].map((c, i) => (flips[i % Math.max(flips.length, 1)] ? c.toUpperCase() : c.toLowerCase())).join("")

describe("renderTemplate properties", () => {
  it.prop(
    "a tag whose value was given never stays, and every given tag is replaced by its value",
    [
      fc.uniqueArray(fc.tuple(nameArb, valueArb), { minLength: 1, maxLength: 5, selector: ([n]) => n.toLowerCase() }),
      fc.array(fc.tuple(textArb, fc.nat(), fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }), fc.boolean()), {
        minLength: 1,
        maxLength: 8
      })
    ],
    ([entries, pieces]) => {
      const values = Object.fromEntries(entries)
      let template = ""
      let expected = ""
      for (const [text, pick, flips, spaced] of pieces) {
        const [name, value] = entries[pick % entries.length]!
        const tagName = randomCase(name, flips)
        template += text + (spaced ? `{ ${tagName} }` : `{${tagName}}`)
        expected += text + String(value)
      }
      const out = Either.getOrThrow(renderTemplate(template, values))
      expect(out).toBe(expected)
      for (const [name] of entries) {
        expect(new RegExp(`\\{ *${name.replace(/[.]/g, "\\.")} *\\}`, "i").test(out)).toBe(false)
      }
    }
  )

  it.prop(
    "with some values missing, no given tag remains and missing tags vanish",
    [
      fc.uniqueArray(nameArb, { minLength: 2, maxLength: 6, selector: (n) => n.toLowerCase() }),
      fc.array(fc.tuple(textArb, fc.nat(), fc.boolean()), { minLength: 1, maxLength: 8 }),
      fc.array(valueArb, { minLength: 6, maxLength: 6 })
    ],
    ([names, pieces, vals]) => {
      const values: Record<string, string | number> = {}
      names.forEach((n, i) => {
        if (i % 2 === 0) values[n] = vals[i]!
      })
      const template = pieces.map(([t, pick]) => `${t}{${names[pick % names.length]}}`).join(" ")
      const out = Either.getOrThrow(renderTemplate(template, values))
      for (const n of names) {
        expect(new RegExp(`\\{${n.replace(/[.]/g, "\\.")}\\}`, "i").test(out)).toBe(false)
      }
    }
  )
})

// An exact decimal reference: effect's BigDecimal (+, -, * are exact there).
type Ast =
  | { t: "num"; v: string }
  | { t: "var"; name: string; v: string }
  | { t: "neg"; e: Ast }
  | { t: "bin"; op: "+" | "-" | "*"; l: Ast; r: Ast }

const decimalText = fc.tuple(fc.integer({ min: -99999, max: 99999 }), fc.integer({ min: 0, max: 3 })).map(
  ([n, scale]) => BigDecimal.format(BigDecimal.make(BigInt(n), scale))
)

const astArb: fc.Arbitrary<Ast> = fc.letrec<{ ast: Ast }>((tie) => ({
  ast: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    decimalText.filter((s) => !s.startsWith("-")).map((v): Ast => ({ t: "num", v })),
    fc.tuple(fc.constantFrom("a", "b", "Price", "qty"), decimalText).map(([name, v]): Ast => ({ t: "var", name, v })),
    tie("ast").map((e): Ast => ({ t: "neg", e })),
    fc.tuple(fc.constantFrom("+", "-", "*") as fc.Arbitrary<"+" | "-" | "*">, tie("ast"), tie("ast")).map((
      [op, l, r]
    ): Ast => ({ t: "bin", op, l, r }))
  )
})).ast

const toSource = (a: Ast, vars: Map<string, string>): string => {
  switch (a.t) {
    case "num":
      return a.v
    case "var": {
      // each variable name is bound once: later uses take the first value
      if (!vars.has(a.name.toLowerCase())) vars.set(a.name.toLowerCase(), a.v)
      return a.name
    }
    case "neg":
      return `-(${toSource(a.e, vars)})`
    case "bin":
      return `(${toSource(a.l, vars)} ${a.op} ${toSource(a.r, vars)})`
  }
}

const reference = (a: Ast, vars: Map<string, string>): BigDecimal.BigDecimal => {
  switch (a.t) {
    case "num":
      return BigDecimal.unsafeFromString(a.v)
    case "var":
      return BigDecimal.unsafeFromString(vars.get(a.name.toLowerCase())!)
    case "neg":
      return BigDecimal.negate(reference(a.e, vars))
    case "bin": {
      const l = reference(a.l, vars)
      const r = reference(a.r, vars)
      return a.op === "+" ? BigDecimal.sum(l, r) : a.op === "-" ? BigDecimal.subtract(l, r) : BigDecimal.multiply(l, r)
    }
  }
}

const PLAIN_DECIMAL = /^-?(0|[1-9]\d*)(\.\d*[1-9])?$/

describe("arithmetic properties", () => {
  it.prop("equals an exact decimal reference (BigDecimal), printed plainly", [astArb], ([ast]) => {
    const vars = new Map<string, string>()
    const source = toSource(ast, vars)
    const values = Object.fromEntries(vars)
    const out = Either.getOrThrow(renderTemplate(`{= ${source} }`, values))
    expect(out).toMatch(PLAIN_DECIMAL)
    expect(BigDecimal.equals(BigDecimal.unsafeFromString(out), reference(ast, vars))).toBe(true)
  }, { fastCheck: { numRuns: 300 } })

  it.prop(
    "number values equal their decimal text",
    [fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e15, max: 1e15 }), decimalText],
    ([x, d]) => {
      const out = Either.getOrThrow(renderTemplate("{= x + d }", { x, d }))
      const expected = BigDecimal.sum(BigDecimal.unsafeFromString(String(x)), BigDecimal.unsafeFromString(d))
      expect(BigDecimal.equals(BigDecimal.unsafeFromString(out), expected)).toBe(true)
    }
  )

  it.prop(
    "division: exact when the quotient terminates, otherwise within half a unit of the 10th decimal",
    [decimalText, decimalText.filter((s) => !BigDecimal.isZero(BigDecimal.unsafeFromString(s)))],
    ([a, b]) => {
      const out = Either.getOrThrow(renderTemplate("{= a / b }", { a, b }))
      expect(out).toMatch(PLAIN_DECIMAL)
      const A = BigDecimal.unsafeFromString(a)
      const B = BigDecimal.unsafeFromString(b)
      const q = BigDecimal.unsafeFromString(out)
      const error = BigDecimal.abs(BigDecimal.subtract(BigDecimal.multiply(q, B), A))
      const bound = BigDecimal.multiply(BigDecimal.abs(B), BigDecimal.unsafeFromString("0.00000000005"))
      expect(BigDecimal.lessThanOrEqualTo(error, bound)).toBe(true)
      const exact = BigDecimal.unsafeDivide(A, B)
      if (BigDecimal.equals(BigDecimal.multiply(exact, B), A)) expect(BigDecimal.equals(q, exact)).toBe(true)
    }
  )
})

/**
 * Text that can be stored. PostgreSQL refuses the NUL character (U+0000) in `text` and `jsonb`
 * values, so an input holding one would fail at the database, after the checks, with an outcome the
 * client cannot tell apart from a lost COMMIT. Every text input is refused up front instead: a 422 on
 * the field's path ("The campaign_name field must not contain the NUL character (U+0000).").
 *
 * - {@link StoredString}: `Schema.String` refined; the base of every free-text field of the request
 *   schemas (schemas.ts's `text`) and of the operator inputs (`@tuma/core` Admin).
 * - {@link StoredJson}: any JSON value (a provider's `config`) whose strings and keys, at any depth,
 *   hold no NUL; the issue names the path inside the value (`config.password`).
 */
import { Schema } from "effect"

/** The message of a refused field (with "The field" replaced by the path in the 422). */
export const NUL_MESSAGE = "The field must not contain the NUL character (U+0000)."

/** Whether a string holds U+0000. */
export const hasNul = (s: string): boolean => s.includes("\u0000")

/** Paths (relative to `value`) of the strings and object keys holding U+0000, depth first. */
export const nulPaths = (value: unknown): Array<ReadonlyArray<PropertyKey>> => {
  const out: Array<ReadonlyArray<PropertyKey>> = []
  const walk = (v: unknown, path: ReadonlyArray<PropertyKey>, depth: number) => {
    if (typeof v === "string") {
      if (hasNul(v)) out.push(path)
    } else if (Array.isArray(v)) {
      if (depth < 64) v.forEach((item, i) => walk(item, [...path, i], depth + 1))
    } else if (typeof v === "object" && v !== null && depth < 64) {
      for (const [k, item] of Object.entries(v)) {
        if (hasNul(k)) out.push([...path, k])
        else walk(item, [...path, k], depth + 1)
      }
    }
  }
  walk(value, [], 0)
  return out
}

/** A string without U+0000. */
export const StoredString = Schema.String.pipe(
  Schema.filter((s) => !hasNul(s) || NUL_MESSAGE)
)

/** Any (JSON) value without U+0000 in its strings or keys; one issue per offending path. */
export const StoredJson = Schema.Unknown.pipe(
  Schema.filter((v) => {
    const paths = nulPaths(v)
    return paths.length === 0 ? true : paths.map((path) => ({ path, message: NUL_MESSAGE }))
  })
)

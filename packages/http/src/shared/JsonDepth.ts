/**
 * A cheap guard against deeply nested JSON (issue 9 item 7): a body such as `[[[[…]]]]` 3,000
 * levels deep parses, but decoding and formatting its errors recurse once per level and overflow
 * the stack. Bodies nested deeper than `maxJsonDepth` levels are refused before `JSON.parse`.
 *
 *   jsonDepthExceeds(text, limit) — one pass over the text, strings skipped, no allocation
 *   guardJsonDepth(request)       — the request with `json` refusing deep bodies (`JsonTooDeep`)
 */
import * as HttpServerError from "@effect/platform/HttpServerError"
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import { Effect } from "effect"

/** Deepest nesting of arrays/objects a JSON body may have (documented in docs/api.md). */
export const maxJsonDepth = 64

/** The cause of a refused body (the envelope middleware answers 400 with its message). */
export class JsonTooDeep extends Error {
  constructor(readonly limit: number) {
    super(`The JSON body is nested deeper than ${limit} levels.`)
  }
}

/** True when `text` opens more than `limit` arrays/objects inside each other (outside strings). */
export const jsonDepthExceeds = (text: string, limit: number = maxJsonDepth): boolean => {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92 /* \ */) i++
      else if (c === 34 /* " */) inString = false
    } else if (c === 34) inString = true
    else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > limit) return true
    } else if (c === 93 /* ] */ || c === 125 /* } */) depth--
  }
  return false
}

/** A body that is not JSON (`cause`: what the parse threw) or is nested too deep (`cause`: `JsonTooDeep`). */
export class MalformedBody extends Error {
  constructor(override readonly cause: unknown) {
    super("The request body is not valid JSON.")
  }
}

/** A request body's text as JSON: the depth scan first, then the parse; an empty body is `null`. */
export const parseJsonText = (text: string, limit: number = maxJsonDepth): Effect.Effect<unknown, MalformedBody> =>
  jsonDepthExceeds(text, limit)
    ? Effect.fail(new MalformedBody(new JsonTooDeep(limit)))
    : Effect.try({
      try: (): unknown => (text === "" ? null : JSON.parse(text)),
      catch: (cause) => new MalformedBody(cause)
    })

/**
 * The same request, except that its `json` reads the (cached) text, refuses it when nested deeper
 * than `limit`, and only then parses. Everything else is the original request's.
 */
export const guardJsonDepth = (
  request: HttpServerRequest.HttpServerRequest,
  limit: number = maxJsonDepth
): HttpServerRequest.HttpServerRequest => {
  const json = Effect.flatMap(
    request.text,
    (text) =>
      Effect.mapError(
        parseJsonText(text, limit),
        (malformed) => new HttpServerError.RequestError({ request, reason: "Decode", cause: malformed.cause })
      )
  )
  return new Proxy(request, {
    get: (target, property) => (property === "json" ? json : Reflect.get(target, property, target))
  })
}

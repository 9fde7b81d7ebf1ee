/**
 * The route table of an HttpApi: every (method, path) it serves, as patterns, for the envelope's
 * 404/405 answers and the request metrics' route label.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import { Context, Option } from "effect"
import type { SchemaAST } from "effect"

/**
 * Annotation of an endpoint that sends messages: its failures tell whether anything was accepted
 * (`acceptance_state`, decisions §5), and a failure outside the use case answers 503 (nothing stored).
 */
export class SendsMessages extends Context.Tag("@tuma/http/SendsMessages")<SendsMessages, true>() {}

/** One route: its method, its path template and the template as a pattern. */
export interface RouteEntry {
  readonly method: string
  readonly path: string
  readonly regex: RegExp
  /** Annotated `SendsMessages`. */
  readonly send: boolean
  /** Its payload may be multipart/form-data (an upload: the larger body limit applies). */
  readonly upload: boolean
}

const isMultipart = (ast: SchemaAST.AST): boolean =>
  HttpApiSchema.getMultipart(ast) !== undefined || HttpApiSchema.getMultipartStream(ast) !== undefined ||
  (ast._tag === "Union" && ast.types.some(isMultipart))

/** What the table reads of an endpoint. */
interface EndpointLike {
  readonly method: string
  readonly path: string
  readonly annotations: Context.Context<never>
  readonly payloadSchema: Option.Option<{ readonly ast: SchemaAST.AST }>
}

const entryOf = (endpoint: EndpointLike): RouteEntry => ({
  method: endpoint.method,
  path: endpoint.path,
  regex: toRegex(endpoint.path),
  send: Context.getOption(endpoint.annotations, SendsMessages).pipe(Option.isSome),
  upload: Option.exists(endpoint.payloadSchema, (schema) => isMultipart(schema.ast))
})

/** A path template (`/v1/sms/messages/:uid`) as a pattern (a trailing slash allowed). */
const toRegex = (path: string) =>
  new RegExp(
    "^" + path.split("/").map((seg) => (seg.startsWith(":") ? "[^/]+" : seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
      .join("/") +
      "/?$"
  )

/** Every (method, path) the API serves, from the contract itself. */
export const routeTable = <Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E, R>(
  api: HttpApi.HttpApi<Id, Groups, E, R>,
  extra: ReadonlyArray<readonly [string, string]>
) => {
  const entries: Array<RouteEntry> = []
  HttpApi.reflect(api, {
    onGroup() {},
    onEndpoint({ endpoint }) {
      entries.push(entryOf(endpoint))
    }
  })
  for (const [method, path] of extra) entries.push({ method, path, regex: toRegex(path), send: false, upload: false })
  return entries
}

/** The exact paths of the routes that match `predicate` (for the envelope's per-path rules). */
export const pathsWhere = (routes: ReadonlyArray<RouteEntry>, predicate: (route: RouteEntry) => boolean) =>
  new Set(routes.filter(predicate).map((route) => route.path))

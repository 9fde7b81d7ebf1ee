/**
 * Handlers of the `senderIds` group (spec §4.7–4.9): list, requirements, and the request, which
 * is JSON (documents in base64) or multipart/form-data (file parts `documents[<requirement_uid>]`
 * and `protection_documents[]`). Multipart bodies are read into the JSON shape and validated by
 * the same schema; error paths are written back in multipart terms (`documents[<uid>]`,
 * `protection_documents.0`).
 */
import type { FileSystem, HttpServerRequest, Path } from "@effect/platform"
import { HttpApiBuilder, Multipart } from "@effect/platform"
import { fieldErrorsFromIssues, validationFailed } from "@tuma/domain"
import type { SenderIdRequest } from "@tuma/domain"
import { Effect, Option, ParseResult, Schema } from "effect"
import { readFile } from "node:fs/promises"
import { TumaApi } from "../Api.js"
import { ServerConfig } from "../Config.js"
import { requestUid } from "../Envelope.js"
import { toApiFailure } from "../Errors.js"
import { SenderIdRequestJson } from "../Requests.js"
import { CurrentApiKey } from "../Security.js"
import { SenderIdService } from "./SenderIdService.js"

const decode = Schema.decodeUnknown(SenderIdRequestJson, { errors: "all", onExcessProperty: "ignore" })

const DOC_PART = /^documents\[([^\]]+)\]$/
const PROTECTION_PART = /^protection_documents(\[\d*\])?$/

const bool = (v: string | undefined) =>
  v === undefined || v === "" ? undefined : v === "true" || v === "1" || v === "on" ? true : v === "false" ||
      v === "0" || v === "off"
    ? false
    : v

/** Reads a multipart body into the JSON request shape, remembering how to name paths back. */
const fromMultipart = (persisted: Multipart.Persisted) =>
  Effect.gen(function*() {
    const field = (name: string) => {
      const v = persisted[name]
      return typeof v === "string" ? v : Array.isArray(v) && typeof v[0] === "string" ? v[0] as string : undefined
    }
    const documents: Array<{ requirement_uid: string; filename: string; content_base64: string }> = []
    const protection: Array<{ filename: string; content_base64: string }> = []
    const docNames: Array<string> = []
    for (const [name, value] of Object.entries(persisted)) {
      if (typeof value === "string" || value.length === 0 || typeof value[0] === "string") continue
      const files = value as ReadonlyArray<Multipart.PersistedFile>
      const doc = DOC_PART.exec(name)
      for (const file of files) {
        const bytes = yield* Effect.promise(() => readFile(file.path))
        const content_base64 = bytes.toString("base64")
        if (doc !== null) {
          documents.push({ requirement_uid: doc[1], filename: file.name, content_base64 })
          docNames.push(name)
        } else if (PROTECTION_PART.test(name)) {
          protection.push({ filename: file.name, content_base64 })
        }
      }
    }
    const body: Record<string, unknown> = {
      sender_id: field("sender_id"),
      country_uid: field("country_uid"),
      sample_message: field("sample_message"),
      purpose: field("purpose"),
      protection_requested: bool(field("protection_requested"))
    }
    for (const k of Object.keys(body)) if (body[k] === undefined) delete body[k]
    if (documents.length > 0) body.documents_base64 = documents
    if (protection.length > 0) body.protection_documents_base64 = protection
    const rename = (path: string) =>
      path
        .replace(/^documents_base64\.(\d+)(\..*)?$/, (_, i) => docNames[Number(i)] ?? `documents.${i}`)
        .replace(/^documents_base64$/, "documents")
        .replace(/^protection_documents_base64\.(\d+)(\..*)?$/, "protection_documents.$1")
        .replace(/^protection_documents_base64$/, "protection_documents")
    return { body, rename }
  })

const renameErrors = (errors: Readonly<Record<string, ReadonlyArray<string>>>, rename: (p: string) => string) => {
  const out: Record<string, Array<string>> = {}
  for (const [path, messages] of Object.entries(errors)) {
    const to = rename(path)
    const list = out[to] ?? (out[to] = [])
    for (const m of messages) {
      const text = m.split(path).join(to)
      if (!list.includes(text)) list.push(text)
    }
  }
  return out
}

export const SenderIdsLive = HttpApiBuilder.group(TumaApi, "senderIds", (handlers) =>
  Effect.gen(function*() {
    const service = yield* SenderIdService
    const config = yield* ServerConfig
    const context = yield* Effect.context<FileSystem.FileSystem | Path.Path>()

    const list = () =>
      Effect.gen(function*() {
        const key = yield* CurrentApiKey
        const data = yield* service.list(key)
        return {
          success: true as const,
          request_uid: yield* requestUid,
          ...(key.mode === "test" ? { mode: "sandbox" as const } : {}),
          data
        }
      })

    const requirements = () =>
      Effect.gen(function*() {
        const key = yield* CurrentApiKey
        const data = yield* service.requirements(key)
        return {
          success: true as const,
          request_uid: yield* requestUid,
          ...(key.mode === "test" ? { mode: "sandbox" as const } : {}),
          data
        }
      })

    const readBody = (request: HttpServerRequest.HttpServerRequest) => {
      const contentType = (request.headers["content-type"] ?? "application/json").toLowerCase()
      if (contentType.startsWith("multipart/form-data")) {
        return request.multipart.pipe(
          Multipart.withLimits({
            maxParts: Option.some(64),
            maxFileSize: Option.some(config.maxUploadBytes),
            maxTotalSize: Option.some(config.maxUploadBytes)
          }),
          Effect.orDie,
          Effect.flatMap(fromMultipart),
          Effect.provide(context)
        )
      }
      return Effect.map(Effect.orDie(request.json), (body) => ({ body, rename: (p: string) => p }))
    }

    const create = ({ request }: { readonly request: HttpServerRequest.HttpServerRequest }) =>
      Effect.gen(function*() {
        const key = yield* CurrentApiKey
        const { body, rename } = yield* readBody(request)
        const payload: SenderIdRequest = yield* decode(body).pipe(
          Effect.catchIf(ParseResult.isParseError, (error) => {
            const failure = validationFailed(
              renameErrors(fieldErrorsFromIssues(ParseResult.ArrayFormatter.formatErrorSync(error)), rename)
            )
            return Effect.fail(toApiFailure(failure))
          })
        )
        const created = yield* service.request(key, payload).pipe(
          Effect.mapError((e) =>
            toApiFailure(
              e._tag === "ValidationFailed" ? validationFailed(renameErrors(e.errors, rename)) : e
            )
          )
        )
        return {
          success: true as const,
          request_uid: yield* requestUid,
          ...(key.mode === "test" ? { mode: "sandbox" as const } : {}),
          message: created.message,
          data: created.data
        }
      })

    return handlers
      .handle("listSenderIds", list)
      .handle("listSenderIdsAlias", list)
      .handle("getRequirements", requirements)
      .handle("getRequirementsAlias", requirements)
      .handleRaw("requestSenderId", create)
      .handleRaw("requestSenderIdAlias", create)
  }))

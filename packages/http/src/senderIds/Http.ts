/**
 * Handlers of the `senderIds` group (spec §4.7–4.9): list, requirements, and the request, which
 * is JSON (documents in base64, decoded by the domain schema) or multipart/form-data (file parts
 * `documents[<requirement_uid>]` and `protection_documents[]`, read as bytes). Both become core's
 * `RequestSenderIdInput`; core checks fields, formats (magic bytes) and sizes, and names error
 * paths in the terms of the body that was sent.
 */
import type * as FileSystem from "@effect/platform/FileSystem"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Multipart from "@effect/platform/Multipart"
import type * as Path from "@effect/platform/Path"
import type { RequestSenderIdInput } from "@tuma/core"
import { fromJsonRequest, SenderIds } from "@tuma/core"
import { fieldErrorsFromIssues, validationFailed } from "@tuma/domain"
import type { Context } from "effect"
import { Effect, Option, ParseResult, Schema } from "effect"
import { readFile } from "node:fs/promises"
import { TumaApi } from "../Api.js"
import { ServerConfig } from "../runtime/Config.js"
import { requestUid, TooManyRequests } from "../shared/Envelope.js"
import { toApiFailure } from "../shared/Errors.js"
import { SenderIdRequestJson } from "../shared/Requests.js"
import { CurrentApiKey } from "../shared/Security.js"

const decode = Schema.decodeUnknown(SenderIdRequestJson, { errors: "all", onExcessProperty: "ignore" })

const DOC_PART = /^documents\[([^\]]*)\]$/
const PROTECTION_PART = /^protection_documents(\[\d*\])?$/

const bool = (v: string | undefined): boolean | null | undefined =>
  v === undefined || v === "" ? undefined : v === "true" || v === "1" || v === "on"

/** A multipart body as core's request input (documents as bytes; error paths in multipart terms). */
export const fromMultipart = (persisted: Multipart.Persisted) =>
  Effect.gen(function*() {
    const field = (name: string) => {
      const v = persisted[name]
      const first = typeof v === "string" ? v : v?.[0]
      return typeof first === "string" ? first : undefined
    }
    const documents: Array<{ requirement_uid: string; filename: string; bytes: Uint8Array }> = []
    const protection: Array<{ filename: string; bytes: Uint8Array }> = []
    for (const [name, value] of Object.entries(persisted)) {
      if (typeof value === "string" || value.length === 0 || typeof value[0] === "string") continue
      const doc = DOC_PART.exec(name)
      for (const file of value) {
        if (typeof file === "string") continue
        const bytes = new Uint8Array(yield* Effect.promise(() => readFile(file.path)))
        if (doc !== null) documents.push({ requirement_uid: doc[1], filename: file.name, bytes })
        else if (PROTECTION_PART.test(name)) protection.push({ filename: file.name, bytes })
      }
    }
    const input: RequestSenderIdInput = {
      sender_id: field("sender_id") ?? "",
      country_uid: field("country_uid") ?? null,
      sample_message: field("sample_message") ?? "",
      purpose: field("purpose") ?? "",
      protection_requested: bool(field("protection_requested")),
      documents,
      protection_documents: protection,
      source: "multipart"
    }
    return input
  })

/** A sender-ID request body (JSON with base64 documents, or multipart with file parts) as core's
 * input; a JSON body that does not decode is a 422 by field (the portal uses it too). */
export const readSenderIdRequest = (
  request: HttpServerRequest.HttpServerRequest,
  maxUploadBytes: number,
  context: Context.Context<FileSystem.FileSystem | Path.Path>
) => {
  const contentType = (request.headers["content-type"] ?? "application/json").toLowerCase()
  if (contentType.startsWith("multipart/form-data")) {
    return request.multipart.pipe(
      Multipart.withLimits({
        maxParts: Option.some(64),
        maxFileSize: Option.some(maxUploadBytes),
        maxTotalSize: Option.some(maxUploadBytes)
      }),
      Effect.orDie,
      Effect.flatMap(fromMultipart),
      Effect.provide(context)
    )
  }
  return Effect.orDie(request.json).pipe(
    Effect.flatMap(decode),
    Effect.map(fromJsonRequest),
    Effect.catchIf(ParseResult.isParseError, (error) =>
      Effect.fail(
        toApiFailure(validationFailed(fieldErrorsFromIssues(ParseResult.ArrayFormatter.formatErrorSync(error))))
      ))
  )
}

export const SenderIdsLive = HttpApiBuilder.group(TumaApi, "senderIds", (handlers) =>
  Effect.gen(function*() {
    const service = yield* SenderIds
    const config = yield* ServerConfig
    const context = yield* Effect.context<FileSystem.FileSystem | Path.Path>()

    /** A read of the key's account in the envelope (`mode: "sandbox"` for a test key). */
    const accountRead = <A, E>(read: (accountId: string) => Effect.Effect<A, E>) => () =>
      Effect.gen(function*() {
        const key = yield* CurrentApiKey
        const data = yield* read(key.accountId)
        return {
          success: true as const,
          request_uid: yield* requestUid,
          ...(key.mode === "test" ? { mode: "sandbox" as const } : {}),
          data
        }
      })
    const list = accountRead(service.list)
    const requirements = accountRead(service.requirements)

    const readInput = (request: HttpServerRequest.HttpServerRequest) =>
      readSenderIdRequest(request, config.maxUploadBytes, context)

    // Uploads in flight per API key (this process): the body is read only inside a slot, so one
    // key cannot hold more than maxConcurrentUploadsPerKey × maxUploadBytes of bodies at once.
    const uploads = new Map<string, number>()
    const uploadSlot = (keyId: string) =>
      Effect.acquireRelease(
        Effect.suspend(() => {
          const n = uploads.get(keyId) ?? 0
          if (n >= config.maxConcurrentUploadsPerKey) {
            return Effect.fail(TooManyRequests.of(
              {
                message:
                  `Too many sender ID requests in flight for this API key (at most ${config.maxConcurrentUploadsPerKey} ` +
                  "at once); retry when one has been answered.",
                error_code: "TOO_MANY_UPLOADS"
              },
              { "retry-after": "1" }
            ))
          }
          uploads.set(keyId, n + 1)
          return Effect.void
        }),
        () =>
          Effect.sync(() => {
            const n = (uploads.get(keyId) ?? 1) - 1
            if (n <= 0) uploads.delete(keyId)
            else uploads.set(keyId, n)
          })
      )

    const create = ({ request }: { readonly request: HttpServerRequest.HttpServerRequest }) =>
      Effect.gen(function*() {
        const key = yield* CurrentApiKey
        yield* uploadSlot(key.keyId)
        const input = yield* readInput(request)
        const created = yield* service.request(key.accountId, input, { sandbox: key.mode === "test" }).pipe(
          Effect.mapError((e) => toApiFailure(e))
        )
        return {
          success: true as const,
          request_uid: yield* requestUid,
          ...(key.mode === "test" ? { mode: "sandbox" as const } : {}),
          message: created.message,
          data: created.data
        }
      }).pipe(Effect.scoped)

    return handlers
      .handle("listSenderIds", list)
      .handle("listSenderIdsAlias", list)
      .handle("getRequirements", requirements)
      .handle("getRequirementsAlias", requirements)
      .handleRaw("requestSenderId", create)
      .handleRaw("requestSenderIdAlias", create)
  }))

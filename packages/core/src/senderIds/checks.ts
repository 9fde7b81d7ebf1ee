/**
 * The checks of a sender-ID request: its fields (step 1) and its documents (step 6); see `SenderIds.ts`.
 */
import {
  detectDocumentFormat,
  DOCUMENT_FORMATS,
  normalizeSenderId,
  SAMPLE_MESSAGE_MAX_LENGTH,
  SAMPLE_MESSAGE_MIN_LENGTH,
  SENDER_ID_PURPOSES
} from "@tuma/domain"
import type { NewSenderIdDocument, RequirementRow } from "../ports/SenderIdStore.js"
import { RequestSenderIdInput, RequirementDocument } from "./model.js"

// ---------------------------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------------------------

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const codePoints = (s: string) => {
  let n = 0
  for (const _ of s) n++
  return n
}

type Errors = Record<string, Array<string>>
const addError = (errors: Errors, path: string, message: string) => (errors[path] ??= []).push(message)

/** Field checks of a request (step 1). Answers the normalised name. */
export const checkRequestFields = (input: RequestSenderIdInput): { name: string | undefined; errors: Errors } => {
  const errors: Errors = {}
  let name: string | undefined
  if (typeof input.sender_id !== "string" || input.sender_id.trim() === "") {
    addError(errors, "sender_id", "The sender_id field is required.")
  } else {
    const r = normalizeSenderId(input.sender_id)
    if (r._tag === "Left") addError(errors, "sender_id", r.left.message)
    else name = r.right
  }
  const sample = typeof input.sample_message === "string" ? input.sample_message.trim() : ""
  if (sample === "") addError(errors, "sample_message", "The sample_message field is required.")
  else if (codePoints(sample) < SAMPLE_MESSAGE_MIN_LENGTH) {
    addError(
      errors,
      "sample_message",
      `The sample_message field must be at least ${SAMPLE_MESSAGE_MIN_LENGTH} characters.`
    )
  } else if (codePoints(sample) > SAMPLE_MESSAGE_MAX_LENGTH) {
    addError(
      errors,
      "sample_message",
      `The sample_message field must not be greater than ${SAMPLE_MESSAGE_MAX_LENGTH} characters.`
    )
  }
  if (!SENDER_ID_PURPOSES.some((p) => p === input.purpose)) {
    addError(errors, "purpose", "The selected purpose is invalid.")
  }
  if (input.country_uid != null && !UUID.test(input.country_uid)) {
    addError(errors, "country_uid", "The country_uid field must be a valid UUID.")
  }
  if (input.protection_requested === true && (input.protection_documents ?? []).length === 0) {
    const path = input.source === "multipart" ? "protection_documents" : "protection_documents_base64"
    addError(errors, path, `The ${path} field is required when protection_requested is true.`)
  }
  return { name, errors }
}

const familyOf = (format: string) => (format.toLowerCase() === "jpeg" ? "jpg" : format.toLowerCase())
const extensionOf = (filename: string) => {
  const dot = filename.lastIndexOf(".")
  return dot === -1 ? "" : familyOf(filename.slice(dot + 1))
}
const CONTENT_TYPES = { pdf: "application/pdf", jpg: "image/jpeg", png: "image/png" } as const

/**
 * Document checks (step 6) against the requirements of the chosen market. Answers the rows to
 * store (ids to be filled) or the field errors.
 */
export const checkDocuments = (
  input: RequestSenderIdInput,
  requirements: ReadonlyArray<RequirementRow>,
  defaultMaxSizeKb: number
): { documents: Array<Omit<NewSenderIdDocument, "id">>; errors: Errors } => {
  const errors: Errors = {}
  const multipart = input.source === "multipart"
  const byUid = new Map(requirements.map((r) => [r.id.toLowerCase(), r]))
  const documents: Array<Omit<NewSenderIdDocument, "id">> = []

  const check = (
    doc: { readonly filename: string; readonly bytes: Uint8Array },
    base: string,
    accepted: ReadonlyArray<string>,
    maxKb: number
  ) => {
    const filenamePath = multipart ? base : `${base}.filename`
    const contentPath = multipart ? base : `${base}.content_base64`
    const families = [...new Set(accepted.map(familyOf))]
    const format = detectDocumentFormat(doc.bytes)
    const extension = extensionOf(doc.filename ?? "")
    let ok = true
    if (!families.includes(extension)) {
      addError(errors, filenamePath, `The ${filenamePath} field must be a file of type: ${accepted.join(", ")}.`)
      ok = false
    }
    if (format === undefined || !families.includes(format)) {
      addError(
        errors,
        contentPath,
        `The ${contentPath} field must be a ${accepted.join(", ")} file (checked by content).`
      )
      ok = false
    } else if (ok && extension !== format) {
      addError(errors, contentPath, `The ${contentPath} field content does not match its file name.`)
      ok = false
    }
    if (doc.bytes.length > maxKb * 1024) {
      addError(errors, contentPath, `The ${contentPath} field must not be greater than ${maxKb} kilobytes.`)
      ok = false
    }
    return ok && format !== undefined ? format : undefined
  }

  const attached = new Set<string>()
  ;(input.documents ?? []).forEach((doc, i) => {
    const base = multipart ? `documents.${doc.requirement_uid}` : `documents_base64.${i}`
    const requirement = typeof doc.requirement_uid === "string"
      ? byUid.get(doc.requirement_uid.toLowerCase())
      : undefined
    if (requirement === undefined) {
      const path = multipart ? base : `${base}.requirement_uid`
      addError(errors, path, `The selected ${path} is invalid.`)
      return
    }
    attached.add(requirement.id)
    const format = check(doc, base, requirement.accepted_formats, requirement.max_size_kb)
    if (format !== undefined) {
      documents.push({
        requirement_id: requirement.id,
        kind: "requirement",
        filename: doc.filename,
        content_type: CONTENT_TYPES[format],
        bytes: doc.bytes
      })
    }
  })
  for (const r of requirements) {
    if (r.is_required && !attached.has(r.id)) {
      addError(errors, multipart ? `documents.${r.id}` : "documents_base64", `The document "${r.name}" is required.`)
    }
  }
  ;(input.protection_documents ?? []).forEach((doc, i) => {
    const base = multipart ? `protection_documents.${i}` : `protection_documents_base64.${i}`
    const format = check(doc, base, DOCUMENT_FORMATS, defaultMaxSizeKb)
    if (format !== undefined) {
      documents.push({
        requirement_id: null,
        kind: "protection",
        filename: doc.filename,
        content_type: CONTENT_TYPES[format],
        bytes: doc.bytes
      })
    }
  })
  return { documents, errors }
}

/** The §2.7 `documents` entry of a requirement. */
export const requirementDocument = (r: RequirementRow): RequirementDocument => ({
  uid: r.id,
  name: r.name,
  is_required: r.is_required,
  accepted_formats: r.accepted_formats,
  max_size_kb: r.max_size_kb
})

/**
 * Sender-ID requirement documents: create, list, delete (deactivate).
 */
import { DEFAULT_DOCUMENT_MAX_SIZE_KB, DOCUMENT_FORMATS, validationFailed } from "@tuma/domain"
import { Effect } from "effect"
import type { AdminContext } from "./context.js"
import { nonNegativeInt, notFound, UUID } from "./context.js"
import type { AdminService } from "./service.js"
import { requirementView } from "./viewsOf.js"

/** Sender-ID requirement documents: create, list, delete (deactivate). */
export const makeRequirements = (
  ctx: AdminContext
): Pick<AdminService, "createRequirement" | "listRequirements" | "deleteRequirement"> => {
  const { senderIds, ids, now, market } = ctx
  return {
    createRequirement: (input) =>
      Effect.gen(function*() {
        const errors: Record<string, Array<string>> = {}
        const name = typeof input.name === "string" ? input.name.trim() : ""
        if (name === "") errors.name = ["The name field is required."]
        const formats = [...new Set((input.accepted_formats ?? DOCUMENT_FORMATS).map((f) => f.toLowerCase()))]
        if (formats.length === 0) errors.accepted_formats = ["The accepted_formats field must not be empty."]
        formats.forEach((f, i) => {
          if (!DOCUMENT_FORMATS.some((d) => d === f)) {
            errors[`accepted_formats.${i}`] = [`The selected accepted_formats.${i} is invalid: pdf, jpg, jpeg or png.`]
          }
        })
        const maxKb = input.max_size_kb ?? DEFAULT_DOCUMENT_MAX_SIZE_KB
        if (!nonNegativeInt(maxKb) || maxKb === 0) {
          errors.max_size_kb = ["The max_size_kb field must be a positive integer."]
        }
        if (Object.keys(errors).length > 0) return yield* validationFailed(errors)
        const m = input.country == null ? null : yield* market(input.country)
        const row = {
          id: yield* ids.uuidV4,
          market_id: m?.id ?? null,
          name,
          is_required: input.is_required ?? false,
          accepted_formats: formats,
          max_size_kb: maxKb,
          active: true,
          created_at: yield* now
        }
        yield* senderIds.insertRequirement(row)
        return requirementView(row)
      }),

    listRequirements: (options = {}) =>
      Effect.map(
        senderIds.requirements({ includeInactive: options.include_inactive === true }),
        (rows) => rows.map(requirementView)
      ),

    deleteRequirement: (id) =>
      Effect.flatMap(
        UUID.test(id) ? senderIds.deactivateRequirement(id) : Effect.succeed(false),
        (found) => (found ? Effect.void : Effect.fail(notFound("requirement", id)))
      )
  }
}

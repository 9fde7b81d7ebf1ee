/** A failed call as the portal and the console show it: the envelope's message, status, code and field errors. */
import { FailureDetails } from "@tuma/domain/messages"
import { Option, Schema } from "effect"

/** A failed call: the envelope's message, HTTP status, `error_code`, field errors and their codes. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly code: string | undefined,
    readonly errors: Readonly<Record<string, ReadonlyArray<string>>> | undefined,
    /** The message and field errors as catalogue codes (the portal's and console's APIs send them). */
    readonly details?: FailureDetails | undefined
  ) {
    super(message)
  }
}

const decodeDetails = Schema.decodeUnknownOption(FailureDetails)

/** The `details` member of an envelope, when it is one. */
export const detailsOf = (u: unknown): FailureDetails | undefined => Option.getOrUndefined(decodeDetails(u))

/** Any failure as an `ApiError` (a thrown `ApiError` as it is). */
export const asApiError = (e: unknown): ApiError =>
  e instanceof ApiError ? e : new ApiError(String(e), undefined, undefined, undefined)

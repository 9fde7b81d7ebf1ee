/** A failed call as the portal and the console show it: the envelope's message, status, code and field errors. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly code: string | undefined,
    readonly errors: Readonly<Record<string, ReadonlyArray<string>>> | undefined
  ) {
    super(message)
  }
}

/** Any failure as an `ApiError` (a thrown `ApiError` as it is). */
export const asApiError = (e: unknown): ApiError =>
  e instanceof ApiError ? e : new ApiError(String(e), undefined, undefined, undefined)

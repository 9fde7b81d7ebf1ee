/** Who sends through the public API: the request's API key, with the request's Idempotency-Key. */
import type { SendCaller } from "@tuma/core"
import type { AuthenticatedKey } from "../shared/Security.js"

/** The send caller of an API key (channel `api`). */
export const callerOf = (key: AuthenticatedKey, idempotencyKey: string | undefined): SendCaller => ({
  accountId: key.accountId,
  apiKeyId: key.keyId,
  mode: key.mode,
  channel: "api",
  idempotencyKey
})

/**
 * What the sender-ID endpoints need from core (spec §2.6, §2.7, §4.7–4.9), as one service the
 * handlers use. `mode: "test"` keys validate exactly as live ones and get a synthetic record that is
 * not stored (decisions §12).
 */
import type {
  CountryNotAvailable,
  RouteNotVerified,
  SenderIdAlreadyRequested,
  SenderIdNotEligible,
  SenderIdRequest,
  ValidationFailed
} from "@tuma/domain"
import type { Effect } from "effect"
import { Context } from "effect"
import type { SenderIdRecord, SenderIdRequirements } from "../Responses.js"
import type { AuthenticatedKey } from "../Security.js"

export type SenderIdRequestError =
  | ValidationFailed
  | SenderIdNotEligible
  | RouteNotVerified
  | CountryNotAvailable
  | SenderIdAlreadyRequested

export class SenderIdService extends Context.Tag("@tuma/http/SenderIdService")<SenderIdService, {
  readonly list: (key: AuthenticatedKey) => Effect.Effect<ReadonlyArray<typeof SenderIdRecord.Type>>
  readonly requirements: (key: AuthenticatedKey) => Effect.Effect<typeof SenderIdRequirements.Type>
  readonly request: (
    key: AuthenticatedKey,
    request: SenderIdRequest
  ) => Effect.Effect<{ readonly message: string; readonly data: typeof SenderIdRecord.Type }, SenderIdRequestError>
}>() {}

/**
 * The rules an operator acting by hand must follow, once for every channel that carries such an
 * action (the console today; any embedding back end's own console tomorrow):
 *
 * - a top-up made by a person needs a `reference` (invoice, receipt): the reason for money appearing
 *   in a wallet. `Admin.purchaseCredits` itself keeps `reference` optional, because the admin API's
 *   `POST /admin/v1/purchases` (scripts, integrations) has always accepted a top-up without one;
 *   the requirement is declared here, for the operator channel (docs/decisions.md "Rules of a
 *   manual action").
 * - a sender-ID rejection needs a reason (decisions §18), on every channel: the admin API's
 *   payload requires it by schema, the console through `rejectionReason`.
 *
 * @module @tuma/core/operators/ManualRules
 */
import { type ValidationFailed, validationFailed } from "@tuma/domain"
import { Effect } from "effect"

/** What is not given: absent, or blank after trimming. */
const missing = (text: string | null | undefined): text is null | undefined | "" =>
  text === undefined || text === null || text.trim() === ""

/** The reference an operator's top-up must carry; 422 `reference` when it is missing. */
export const topUpReference = (reference: string | null | undefined): Effect.Effect<string, ValidationFailed> =>
  missing(reference)
    ? Effect.fail(validationFailed({ reference: ["A reference (invoice, receipt) is required for a top-up."] }))
    : Effect.succeed(reference)

/** The reason a sender-ID rejection must carry; 422 `reason` when it is missing. */
export const rejectionReason = (reason: string | null | undefined): Effect.Effect<string, ValidationFailed> =>
  missing(reason)
    ? Effect.fail(validationFailed({ reason: ["A reason is required to reject a sender ID."] }))
    : Effect.succeed(reason)

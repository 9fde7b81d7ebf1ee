/**
 * Cancelling a scheduled campaign: its owner (portal, or an embedding back end) takes it back before
 * its time. The campaign table decides whether it may (`scheduled` takes `cancel`; a campaign that
 * started or was cancelled does not: `IllegalTransition`, 409); the store applies it atomically —
 * messages failed with `CANCELLED`, every unit refunded with a ledger entry, their webhooks queued
 * like any failure.
 *
 * @module @tuma/core/campaigns/Cancel
 */
import { CampaignStatus, IllegalTransition, ResourceNotFound, transitionCampaign } from "@tuma/domain"
import { Clock, Effect, Either, Schema } from "effect"
import { CampaignStore } from "../ports/CampaignStore.js"

/** What a cancellation gave back. */
export interface CancelledCampaign {
  readonly messages: number
  readonly units: number
}

const isCampaignStatus = Schema.is(CampaignStatus)

/** Cancels the account's campaign `campaignId`, if it is still scheduled. */
export const cancelCampaign = (
  accountId: string,
  campaignId: string
): Effect.Effect<CancelledCampaign, ResourceNotFound | IllegalTransition, CampaignStore> =>
  Effect.gen(function*() {
    const store = yield* CampaignStore
    const now = new Date(yield* Clock.currentTimeMillis)
    const outcome = yield* store.cancel(accountId, campaignId, now)
    switch (outcome._tag) {
      case "Cancelled":
        return { messages: outcome.messages, units: outcome.units }
      case "NotFound":
        return yield* new ResourceNotFound({
          message: "The campaign was not found.",
          resource: "campaign",
          id: campaignId
        })
      case "NotCancellable": {
        const refused = isCampaignStatus(outcome.status)
          ? transitionCampaign(outcome.status, "cancel")
          : Either.left(
            new IllegalTransition({
              message: `A campaign in state ${outcome.status} cannot take the event cancel.`,
              machine: "campaign",
              from: outcome.status,
              event: "cancel"
            })
          )
        return yield* Either.isLeft(refused)
          ? Effect.fail(refused.left)
          : Effect.dieMessage(`cancel: the store refused a campaign in ${outcome.status}, which the table allows`)
      }
    }
  })

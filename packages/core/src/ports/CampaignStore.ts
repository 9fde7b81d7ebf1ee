/**
 * Port: what the owner of a campaign may change about it once accepted — cancelling a scheduled
 * campaign. Adapter: `@tuma/store-sql/SqlCampaignStore`. Every operation takes the account id, so
 * another account's campaign is not told apart from an unknown one.
 */
import type { Effect } from "effect"
import { Context, Data } from "effect"

/** What `cancel` did. */
export type CancelCampaignOutcome = Data.TaggedEnum<{
  /** Cancelled now: its scheduled messages failed (`CANCELLED`) and their units went back to the wallets. */
  Cancelled: { readonly messages: number; readonly units: number }
  /** The account has no such campaign. */
  NotFound: {}
  /** The campaign is in `status`, which does not take `cancel` (it has started, or was cancelled). */
  NotCancellable: { readonly status: string }
}>
export const CancelCampaignOutcome = Data.taggedEnum<CancelCampaignOutcome>()

/** Port: campaign changes after acceptance (SQL adapter only). */
export class CampaignStore extends Context.Tag("@tuma/core/CampaignStore")<CampaignStore, {
  /**
   * In one transaction: the campaign takes `cancel` (only from the states the campaign table allows),
   * each of its messages that can take `cancel` does (failed, `CANCELLED`), their units are refunded
   * to their wallets with a ledger entry each. Nothing changes unless the campaign could take it.
   */
  readonly cancel: (accountId: string, campaignId: string, now: Date) => Effect.Effect<CancelCampaignOutcome>
}>() {}

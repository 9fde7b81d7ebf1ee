/**
 * A bulk send's working rows: candidates, per-recipient failures and accepted messages.
 */
import type { Encoding } from "@tuma/domain"
import type { MarketRow, SenderIdGrantRow } from "../ports/SendStore.js"
import { RecipientRefusal } from "./checks.js"
import { CampaignFailure } from "./model.js"

export interface Candidate {
  readonly index: number
  readonly e164: string
  readonly country: string
  readonly text: string
  readonly encoding: Encoding
  readonly units: number
}

export interface Failure {
  readonly index: number
  readonly recipient: string
  readonly error: RecipientRefusal
}

export interface Accepted extends Candidate {
  readonly id: string
  readonly market: MarketRow
  readonly sender: SenderIdGrantRow
}

export const failureEntry = (f: Failure): CampaignFailure => ({
  recipient: f.recipient,
  index: f.index,
  error_code: f.error.error_code,
  reason: f.error.message
})

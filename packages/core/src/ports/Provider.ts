/**
 * The `Provider` port: a carrier that takes an SMS and later reports what became of it.
 *
 * - `submit` answers one of three outcomes (decisions.md §21):
 *   - `Accepted`: the carrier took every part; one provider message id per part (a part the carrier
 *     refused while others were accepted is listed in `refusedParts`: the message then fails, its units
 *     stay spent, and it is never re-sent elsewhere).
 *   - `NotAccepted`: no part reached the carrier (`transient` may fail over / retry, `permanent` fails).
 *   - `Unknown`: a part was written to the carrier but no answer came back (timeout, connection lost);
 *     `reference` is kept for reconciliation, the message is never re-sent elsewhere.
 * - Delivery reports (per part) and inbound MO messages flow the other way through the
 *   `ProviderEventSink` the adapter is built with. The adapter acknowledges the carrier only after the
 *   sink's effect succeeds, so a report is never acknowledged before it is durable.
 */
import type { Concat, InboundEncoding } from "@tuma/domain"
import type { Effect, Exit } from "effect"
import { Context, Data } from "effect"

/** How the text is encoded on the air: GSM-7 (160 characters a part) or Unicode/UCS-2 (70). */
export type ProviderEncoding = "GSM-7" | "Unicode"

/** What a provider is asked to carry: the final text (already converted), never re-encoded here. */
export interface OutboundSms {
  /** Our message uid; also the base of the reconciliation reference. */
  readonly messageId: string
  /** E.164 with a leading `+`. */
  readonly recipient: string
  /** Alphanumeric sender ID or a number. */
  readonly senderId: string
  readonly text: string
  readonly encoding: ProviderEncoding
}

/** `submit` outcome: the carrier took every part (some may be listed as refused; the message then fails). */
export class Accepted extends Data.TaggedClass("Accepted")<{
  /** One id per part, in part order; `null` only at the indexes listed in `refusedParts`. */
  readonly providerMessageIds: ReadonlyArray<string | null>
  /** Parts the carrier refused although others were accepted (index into the parts, reason). */
  readonly refusedParts: ReadonlyArray<{ readonly index: number; readonly reason: string }>
}> {}

/** `submit` outcome: no part reached the carrier; `transient` may be retried or failed over, else it fails. */
export class NotAccepted extends Data.TaggedClass("NotAccepted")<{
  readonly transient: boolean
  /** Human-readable reason, e.g. "Carrier refused the destination address (ESME_RINVDSTADR)". */
  readonly reason: string
  /** Carrier/protocol code, e.g. `ESME_RINVDSTADR`, `SMSC_UNAVAILABLE`. */
  readonly code: string
}> {}

/** `submit` outcome: a part was written but no answer came; never re-sent, reconciled by `reference`. */
export class Unknown extends Data.TaggedClass("Unknown")<{
  /** Our reference for the submit (kept for reconciliation). */
  readonly reference: string
  readonly reason: string
  /** Ids of the parts that were accepted before the outcome became unknown (null where unknown). */
  readonly providerMessageIds: ReadonlyArray<string | null>
}> {}

/** What a `submit` answers: `Accepted`, `NotAccepted` or `Unknown` (decisions.md §21). */
export type SubmitOutcome = Accepted | NotAccepted | Unknown

/** Carrier-side final or intermediate state of one part. */
export type PartState = "delivered" | "failed" | "enroute"

/** A delivery report for one part, as received (id not yet normalised). */
export class DeliveryReport extends Data.TaggedClass("DeliveryReport")<{
  readonly providerId: string
  readonly providerMessageId: string
  readonly state: PartState
  /** Carrier status word, e.g. `DELIVRD`, `UNDELIV`, `EXPIRED`. */
  readonly deliveryStatus: string
  /** Carrier error code when given (`err:` field), e.g. `000`. */
  readonly errorCode: string | null
  readonly receivedAt: Date
}> {}

/** A message sent by a handset (mobile originated). */
export class InboundMessage extends Data.TaggedClass("InboundMessage")<{
  readonly providerId: string
  /** The handset, E.164 with `+` when the carrier gave a number. */
  readonly from: string
  /** The address it was sent to (our short code / sender). */
  readonly to: string
  readonly text: string
  readonly receivedAt: Date
  /** How the text was encoded on the air (GSM-7 when not told). */
  readonly encoding?: InboundEncoding | undefined
  /** Its place in a concatenated message (UDH or `sar_*`); absent or null for a single part. */
  readonly concat?: Concat | null | undefined
}> {}

/** A submit whose outcome was `Unknown` turned out accepted (late response). */
export class LateAcceptance extends Data.TaggedClass("LateAcceptance")<{
  readonly providerId: string
  readonly reference: string
  readonly partIndex: number
  readonly providerMessageId: string
}> {}

/**
 * What an adapter reports through the `ProviderEventSink`: a delivery report, an inbound message or a
 * late acceptance.
 */
export type ProviderEvent = DeliveryReport | InboundMessage | LateAcceptance

/** Status of one part asked of the carrier (reconciliation of `Unknown`). */
export type QueryOutcome =
  | { readonly _tag: "Found"; readonly state: PartState; readonly deliveryStatus: string }
  | { readonly _tag: "NotFound" }
  | { readonly _tag: "Unsupported" }

/** A carrier adapter: submits messages, counts their parts, queries a part's status for reconciliation. */
export interface Provider {
  readonly id: string
  /** Parts the text will take on this provider (what `submit` will send). */
  readonly partCount: (sms: OutboundSms) => number
  readonly submit: (sms: OutboundSms) => Effect.Effect<SubmitOutcome>
  /**
   * Optional: submits many messages at once without a fiber each (adapters that pipeline, like SMPP
   * with its window). `onOutcome(index, exit)` is called once per message as its answer comes, in any
   * order; the effect completes when every message is answered. Without it, workers call `submit`.
   */
  readonly submitMany?: (
    smses: ReadonlyArray<OutboundSms>,
    onOutcome: (index: number, outcome: Exit.Exit<SubmitOutcome>) => void
  ) => Effect.Effect<void>
  readonly query: (providerMessageId: string) => Effect.Effect<QueryOutcome>
  /** Optional: whether the carrier session is bound now (metrics; absent = always available). */
  readonly bound?: () => boolean
}

/**
 * Where adapters push what carriers report. The returned effect must complete only once the event is
 * recorded durably; a failing effect makes the adapter answer the carrier with a temporary error so
 * the carrier re-sends it.
 */
export class ProviderEventSink extends Context.Tag("@tuma/core/ProviderEventSink")<
  ProviderEventSink,
  {
    readonly handle: (event: ProviderEvent) => Effect.Effect<void, unknown>
    /**
     * Optional: `handle` without a fiber per event, for adapters on a hot path (a receipt per part).
     * `done(true)` once the event is recorded durably, `done(false)` when it could not be.
     */
    readonly offer?: (event: ProviderEvent, done: (recorded: boolean) => void) => void
  }
>() {}

/**
 * Every configured provider, by id. A registry built from stored settings may `reload` them:
 * providers added or enabled since are started, changed ones restarted, disabled ones stopped
 * (`all` then answers the new set).
 */
export class Providers extends Context.Tag("@tuma/core/Providers")<
  Providers,
  {
    readonly get: (id: string) => Provider | undefined
    readonly all: ReadonlyArray<Provider>
    readonly reload?: Effect.Effect<void> | undefined
  }
>() {}

/** A fixed `Providers` registry over these providers, looked up by `Provider.id` (no `reload`). */
export const providersFrom = (all: ReadonlyArray<Provider>): Providers["Type"] => {
  const byId = new Map(all.map((p) => [p.id, p] as const))
  return { get: (id) => byId.get(id), all }
}

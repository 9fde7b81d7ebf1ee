/**
 * The status conditions of the SQL statements, derived from the domain's transition tables
 * (`@tuma/domain` stateMachines): the tables are the only home of a transition, and every
 * `status IN (…)` a statement filters on is computed here from them (`sourcesOf`, `finalStatesOf`),
 * never written by hand. Each condition is named by what the statement is allowed to do.
 *
 * The statuses are literals from a closed set (the tables' keys, checked against `[a-z_]+`), so they
 * are safe to inline in the statement text: `inList("m.status", Message.awaitingReceipt)` renders
 * `m.status IN ('sent')`. For a tagged-template statement use `sql.literal(inList(...))`, or bind the
 * list as an array parameter (`status = ANY($n::text[])`).
 */
import {
  campaignTransitions,
  finalStatesOf,
  type MessageStatus,
  messageTransitions,
  senderIdTransitions,
  sourcesOf,
  transitionsOf,
  type TransitionTable
} from "@tuma/domain"

const union = <S extends string>(...lists: ReadonlyArray<ReadonlyArray<S>>): ReadonlyArray<S> => [
  ...new Set(lists.flat())
]

/** A status as a SQL string literal; anything but `[a-z_]+` is a programming error. */
const literal = (status: string): string => {
  if (!/^[a-z_]+$/.test(status)) throw new Error(`Not a status literal: ${JSON.stringify(status)}`)
  return `'${status}'`
}

/**
 * The one state `event` leads to in `table`, as a SQL literal (`'processing'`): the value a statement
 * sets. An event leading to different states from different sources is a programming error here.
 */
export const targetOf = <S extends string, E extends string>(table: TransitionTable<S, E>, event: E): string => {
  const targets = [...new Set(transitionsOf(table).filter(([, e]) => e === event).map(([, , to]) => to))]
  if (targets.length !== 1) throw new Error(`The event ${event} has no single target state: ${targets.join(", ")}`)
  return literal(targets[0])
}

/** `column IN ('a', 'b')` (`false` for an empty list). */
export const inList = (column: string, states: ReadonlyArray<string>): string =>
  states.length === 0 ? "false" : `${column} IN (${states.map(literal).join(", ")})`

/** `column NOT IN ('a', 'b')` (`true` for an empty list). */
export const notInList = (column: string, states: ReadonlyArray<string>): string =>
  states.length === 0 ? "true" : `${column} NOT IN (${states.map(literal).join(", ")})`

const next = (state: MessageStatus, event: keyof (typeof messageTransitions)[MessageStatus]) =>
  messageTransitions[state][event]

/** The states the message statements set, by event. */
export const MessageTarget = {
  claim: targetOf(messageTransitions, "claim"),
  release: targetOf(messageTransitions, "release"),
  due: targetOf(messageTransitions, "due"),
  fail: targetOf(messageTransitions, "fail"),
  cancel: targetOf(messageTransitions, "cancel")
} as const

/** The states the campaign statements set, by event. */
export const CampaignTarget = {
  due: targetOf(campaignTransitions, "due"),
  cancel: targetOf(campaignTransitions, "cancel")
} as const

/** The message conditions (decisions.md §19). */
export const Message = {
  /**
   * A queue row may be claimed when its message can take `claim`, or `release` then `claim` (a
   * worker's lease expired while the message was processing: it is taken again).
   */
  claimable: union(
    sourcesOf(messageTransitions, "claim"),
    sourcesOf(messageTransitions, "release").filter((s) => {
      const released = next(s, "release")
      return released !== undefined && messageTransitions[released].claim !== undefined
    })
  ),
  /**
   * Waiting for the outcome of a submission: claimable or being submitted (`claim` or `accept`
   * allowed). A submission's result (`accept`, or `fail` before any acceptance) applies only there.
   */
  awaitingSubmission: union(sourcesOf(messageTransitions, "claim"), sourcesOf(messageTransitions, "accept")),
  /** A worker gives the message back to the queue (`release`). */
  releasable: sourcesOf(messageTransitions, "release"),
  /** Accepted by a provider, waiting for its delivery receipt (`deliver`; a failing receipt is `fail`). */
  awaitingReceipt: sourcesOf(messageTransitions, "deliver"),
  /** Its schedule time may arrive (`due`). */
  scheduled: sourcesOf(messageTransitions, "due"),
  /** Its campaign may still be cancelled (`cancel`). */
  cancellable: sourcesOf(messageTransitions, "cancel"),
  /** Takes no event. */
  final: finalStatesOf(messageTransitions),
  /** Accepted messages that go to the dispatch queue at once (they can take `claim`). */
  queuedOnAccept: sourcesOf(messageTransitions, "claim")
} as const

/** The campaign conditions (spec §3.2). */
export const Campaign = {
  /** Its schedule time may arrive (`due`). */
  scheduled: sourcesOf(campaignTransitions, "due"),
  /** Its owner may still cancel it (`cancel`). */
  cancellable: sourcesOf(campaignTransitions, "cancel")
} as const

/** The sender-ID conditions (decisions.md §18). */
export const SenderId = {
  /** A status that takes no operator decision: the record is closed (`rejected`). */
  final: finalStatesOf(senderIdTransitions)
} as const

/**
 * The `SmppBindStore` port: the live SMPP binds of every process (docs/smpp.md "Live binds"). Each
 * process with an SMPP listener registers its binds, refreshes them with a heartbeat (their messages
 * in flight and submit rate) and removes them when they close; a bind whose heartbeat is older than
 * the staleness limit belongs to a process that died and is not listed. An unbind asked by an
 * operator or a customer is written here and the owning process is woken (`pg_notify` on SQL); it
 * sends `unbind` to the ESME and closes the connection. The SQL adapter is `SqlSmppBindStore`
 * (migration 0930).
 */
import type { Effect, Option, Scope } from "effect"
import { Context } from "effect"

/** The kinds of bind an ESME can open. */
export type SmppBindType = "transmitter" | "receiver" | "transceiver"

/** A live bind as stored. */
export interface SmppBindRow {
  readonly id: string
  readonly smpp_account_id: string
  readonly account_id: string
  readonly system_id: string
  readonly bind_type: SmppBindType
  readonly remote_address: string
  /** The process holding the connection (a random id per SMPP listener). */
  readonly process_id: string
  readonly since: Date
  readonly heartbeat_at: Date
  /** Submits received and not answered yet. */
  readonly in_flight: number
  /** Submits received within the last minute. */
  readonly submits_last_minute: number
  /** When an unbind was asked (null: none). */
  readonly unbind_requested_at: Date | null
}

/** Which binds an unbind request is for: one bind, or every bind of some credentials. */
export type UnbindTarget = { readonly bindId: string } | { readonly smppAccountId: string }

/** The store of live binds. */
export class SmppBindStore extends Context.Tag("@tuma/core/SmppBindStore")<SmppBindStore, {
  /** Adds (or refreshes) a bind of this process. */
  readonly register: (row: SmppBindRow) => Effect.Effect<void>
  /**
   * Adds a new bind unless its credentials already have `maxBinds` live binds (heartbeat at or after
   * `liveSince`) in any process: the count and the insert under one lock of the credentials, so two
   * processes binding at once cannot both take the last place. Answers whether it was added.
   */
  readonly admit: (row: SmppBindRow, maxBinds: number, liveSince: Date) => Effect.Effect<boolean>
  /**
   * The heartbeat of a process: its binds up now are written (added if missing, their figures and
   * `heartbeat_at = now` refreshed; an asked unbind is kept), its other rows deleted (closed meanwhile).
   * Answers the ids of its binds an unbind was asked for.
   */
  readonly heartbeat: (
    processId: string,
    binds: ReadonlyArray<SmppBindRow>,
    now: Date
  ) => Effect.Effect<ReadonlyArray<string>>
  /** Removes a closed bind. */
  readonly remove: (id: string) => Effect.Effect<void>
  /** The live binds (heartbeat at or after `liveSince`), of one account or all, oldest first. */
  readonly list: (accountId: string | undefined, liveSince: Date) => Effect.Effect<ReadonlyArray<SmppBindRow>>
  /** One live bind. */
  readonly get: (id: string, liveSince: Date) => Effect.Effect<Option.Option<SmppBindRow>>
  /**
   * Asks the owning processes to unbind: marks the live binds of the target and wakes their
   * processes. Answers the binds marked.
   */
  readonly requestUnbind: (
    target: UnbindTarget,
    now: Date,
    liveSince: Date
  ) => Effect.Effect<ReadonlyArray<SmppBindRow>>
  /** The ids of this process's binds an unbind was asked for. */
  readonly unbindRequests: (processId: string) => Effect.Effect<ReadonlyArray<string>>
  /** Deletes the binds whose heartbeat is older than `before` (their process died); answers how many. */
  readonly purge: (before: Date) => Effect.Effect<number>
  /** Wake-ups when an unbind is asked (completes at the next request; never on a store without notifications). */
  readonly wakeups: Effect.Effect<{ readonly next: Effect.Effect<void> }, never, Scope.Scope>
}>() {}

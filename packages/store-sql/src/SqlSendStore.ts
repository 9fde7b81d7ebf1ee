/**
 * SQL adapter of the `SendStore` port (PostgreSQL and PGlite, same SQL).
 *
 * - `snapshot`, `findIdempotency`: send/snapshot.ts (one statement each).
 * - `accept`: send/accept.ts, one path over the statements of send/statements.ts: a plan alone (bulk
 *   and campaign sends, or a single send with no concurrent company), or a group of concurrent
 *   single sends committed together (the group commit below).
 *
 * Every single send of an account debits the same wallet row, which stays locked from the debit to
 * the end of COMMIT (WAL flush included). One transaction per send therefore serialises an
 * account's sends at one commit each. Instead, concurrent single-message plans of this process are
 * accepted together in one transaction and one COMMIT. Callers are answered only after that COMMIT.
 * If the COMMIT itself is refused by the server (the transaction definitely rolled back), every plan
 * is retried alone; if its outcome is unknown (connection lost), every caller gets the defect (503
 * UNKNOWN, decisions §5).
 */
import { SqlClient } from "@effect/sql"
import type { AcceptPlan } from "@tuma/core"
import { AcceptOutcome, SendStore } from "@tuma/core"
import type { Tracer } from "effect"
import { Array as Arr, Cause, Deferred, Effect, Exit, Layer, Option, Queue } from "effect"
import { PgliteClient } from "./PgliteClient.js"
import { acceptAlone, acceptGroup } from "./send/accept.js"
import { findIdempotency, snapshot } from "./send/snapshot.js"
import { certainlyRolledBack, transaction } from "./SqlRetry.js"

type Pending = {
  readonly plan: AcceptPlan
  readonly done: Deferred.Deferred<AcceptOutcome>
  /** The caller's span: the group's transaction (a trace of its own) links to each. */
  readonly span: Option.Option<Tracer.AnySpan>
}

/** The group's transaction certainly rolled back (SqlRetry.ts): each plan may be accepted alone. */
const rolledBack = (cause: Cause.Cause<unknown>): boolean =>
  Arr.some([...Cause.failures(cause), ...Cause.defects(cause)], certainlyRolledBack)

/** Answers a plan by accepting it in its own transaction. */
const alone = (p: Pending) => Effect.flatMap(Effect.exit(acceptAlone(p.plan)), (x) => Deferred.done(p.done, x))

/** Accepts a group (one transaction) and answers each caller after its COMMIT. */
const runGroup = (group: ReadonlyArray<Pending>): Effect.Effect<void, never, SqlClient.SqlClient> => {
  if (group.length === 1) return alone(group[0])
  return transaction(10)(acceptGroup(group.map((p) => p.plan))).pipe(
    Effect.exit,
    Effect.flatMap((exit) =>
      Exit.isSuccess(exit)
        ? Effect.forEach(group, (p, i) => {
          const outcome = exit.value[i]
          return outcome === undefined // a second claim of one key in this group: alone, after it
            ? alone(p)
            : Deferred.succeed(p.done, outcome)
        })
        : rolledBack(exit.cause)
        ? Effect.forEach(group, alone)
        : Effect.forEach(group, (p) => Deferred.failCause(p.done, Cause.die(Cause.squash(exit.cause))))
    ),
    Effect.asVoid
  )
}

const tracedGroup = (group: ReadonlyArray<Pending>) =>
  runGroup(group).pipe(Effect.withSpan("SendStore.acceptGroup", {
    root: true,
    links: group.flatMap((p) =>
      Option.isSome(p.span) ? [{ _tag: "SpanLink", span: p.span.value, attributes: {} }] : []
    ),
    attributes: { "tuma.group.size": group.length },
    captureStackTrace: false
  }))

const groupable = (plan: AcceptPlan) =>
  plan.campaign === undefined && plan.messages.items.length === 1 && plan.debits.length <= 1

/**
 * The SQL `SendStore`: one-statement snapshot, one accept path, concurrent single sends grouped into
 * one transaction.
 */
export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const pending = yield* Queue.unbounded<Pending>()

  // PGlite runs its statements on this thread, in promise callbacks: while a group's transaction runs
  // no request is read from a socket, and the first plan to arrive afterwards would start the next
  // group alone (one send and one durable commit per group). So on PGlite the loop waits, after the
  // first plan, for the event loop's check phase (`setImmediate`): by then the I/O callbacks already
  // due — requests read from the sockets, each of which may offer a plan — have run. The wait needs
  // the event loop to turn: a fiber that keeps the microtask queue busy without end (polling PGlite
  // in a loop with no timer or I/O between) holds it back, as it holds back every timer and socket.
  const linger = Option.isSome(yield* Effect.serviceOption(PgliteClient)) ? nextCheckPhase : Effect.void

  yield* Queue.take(pending).pipe(
    Effect.zipLeft(linger),
    Effect.flatMap((first) => Effect.map(Queue.takeUpTo(pending, GROUP_MAX - 1), (rest) => [first, ...rest])),
    Effect.flatMap(tracedGroup),
    Effect.forever,
    Effect.provideService(SqlClient.SqlClient, sql),
    Effect.forkScoped
  )

  const accept = (plan: AcceptPlan): Effect.Effect<AcceptOutcome> =>
    groupable(plan)
      ? Effect.flatMap(Deferred.make<AcceptOutcome>(), (done) =>
        Effect.flatMap(
          Effect.option(Effect.currentSpan),
          (span) => Effect.zipRight(Queue.offer(pending, { plan, done, span }), Deferred.await(done))
        ))
      : acceptAlone(plan).pipe(Effect.provideService(SqlClient.SqlClient, sql))

  return SendStore.of({
    snapshot: snapshot(sql),
    findIdempotency: findIdempotency(sql),
    accept
  })
})

const GROUP_MAX = 128

/** Resumes in the event loop's check phase: after the I/O callbacks already due have run. */
const nextCheckPhase: Effect.Effect<void> = Effect.async<void>((resume) => {
  const handle = setImmediate(() => resume(Effect.void))
  return Effect.sync(() => clearImmediate(handle))
})

/** `SendStore` on SQL (scoped: it owns the group-commit fiber). */
export const layer: Layer.Layer<SendStore, never, SqlClient.SqlClient> = Layer.scoped(SendStore, make)

/**
 * The parts every send shares: idempotency (replay, conflict, the claim written with the accept) and the answer to an accept outcome.
 */
import { idempotencyFingerprint, IdempotencyKeyReused, InsufficientBalance } from "@tuma/domain"
import type { ParseResult } from "effect"
import { Clock, Duration, Effect, Option } from "effect"
import type { AcceptOutcome, IdempotencyRecord, MarketRow } from "../ports/SendStore.js"
import { SendStore } from "../ports/SendStore.js"
import { SendCaller, SendConfig, SendError, SendOutcome } from "./model.js"

/** Decodes the answer an idempotency record stored (`Schema.decodeUnknown` of the answer's schema). */
export type DecodeAnswer<A> = (response: unknown) => Effect.Effect<A, ParseResult.ParseError>

/** The shared parts of every send: the clock as a `Date`, the idempotency rules and the accept outcome. */
export const makeSendSupport = (store: SendStore["Type"]) => {
  const nowDate = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

  /** Replay (the stored answer, decoded) or conflict of a stored record, if the caller's key has one. */
  const decideRecord = <A>(record: IdempotencyRecord, fingerprint: string, decode: DecodeAnswer<A>) =>
    record.fingerprint === fingerprint
      ? Effect.map(
        Effect.orDie(decode(record.response)),
        (data): SendOutcome<A> => ({ data, idempotent_replay: true, sandbox: false })
      )
      : Effect.fail(
        new IdempotencyKeyReused({
          message: "This Idempotency-Key was already used with a different request. Use a new key for a new message."
        })
      )

  /**
   * Runs a live send under the idempotency rules: replay/conflict up front; after a refusal, look
   * again (a concurrent first request may have committed meanwhile and must be replayed).
   */
  const idempotent = <A>(
    caller: SendCaller,
    endpoint: string,
    decode: DecodeAnswer<A>,
    request: unknown,
    run: (fingerprint: string | undefined) => Effect.Effect<SendOutcome<A>, SendError>
  ): Effect.Effect<SendOutcome<A>, SendError> => {
    const key = caller.idempotencyKey
    if (key === undefined || caller.mode === "test") return run(undefined)
    const fingerprint = idempotencyFingerprint(endpoint, request)
    const lookup = Effect.flatMap(nowDate, (now) => store.findIdempotency(caller.accountId, key, now))
    return Effect.flatMap(
      lookup,
      Option.match({
        onSome: (record) => decideRecord(record, fingerprint, decode),
        onNone: () =>
          run(fingerprint).pipe(
            Effect.catchIf(
              (e) => e._tag !== "IdempotencyKeyReused",
              (e): Effect.Effect<SendOutcome<A>, SendError> =>
                Effect.flatMap(
                  lookup,
                  (found): Effect.Effect<SendOutcome<A>, SendError> =>
                    Option.isSome(found) ? decideRecord(found.value, fingerprint, decode) : Effect.fail(e)
                )
            )
          )
      })
    )
  }

  const idempotencyClaim = (
    caller: SendCaller,
    endpoint: string,
    fingerprint: string | undefined,
    now: Date,
    response: unknown
  ) =>
    Effect.map(SendConfig, (cfg) =>
      fingerprint === undefined || caller.idempotencyKey === undefined
        ? undefined
        : {
          key: caller.idempotencyKey,
          endpoint,
          fingerprint,
          expires_at: new Date(now.getTime() + Duration.toMillis(cfg.idempotencyTtl)),
          response
        })

  const shortfallError = (
    outcome: Extract<AcceptOutcome, { _tag: "InsufficientFunds" }>,
    markets: ReadonlyMap<string, MarketRow>,
    totalRequired: number
  ) => {
    const byId = new Map([...markets.values()].map((m) => [m.id, m.iso2]))
    const shortfall = outcome.shortfall.map((s) => ({
      country: byId.get(s.market_id) ?? s.market_id,
      units_required: s.units_required,
      units_available: s.units_available
    }))
    const missing = shortfall.reduce((n, s) => n + s.units_required - s.units_available, 0)
    return new InsufficientBalance({
      message: `Insufficient balance: ${
        shortfall.map((s) => `${s.units_required} units needed in ${s.country}, ${s.units_available} available`).join(
          "; "
        )
      }.`,
      units_required: totalRequired,
      units_available: totalRequired - missing,
      shortfall
    })
  }

  const afterAccept = <A>(
    outcome: AcceptOutcome,
    fingerprint: string | undefined,
    decode: DecodeAnswer<A>,
    data: A,
    onInsufficient: (o: Extract<AcceptOutcome, { _tag: "InsufficientFunds" }>) => SendError
  ): Effect.Effect<SendOutcome<A>, SendError> => {
    switch (outcome._tag) {
      case "Accepted":
        return Effect.succeed({ data, idempotent_replay: false, sandbox: false })
      case "KeyTaken":
        return decideRecord(outcome.record, fingerprint!, decode)
      case "InsufficientFunds":
        return Effect.fail(onInsufficient(outcome))
      case "Stale":
        // only a guarded plan (decided on a reused snapshot) can be stale, and its caller decides again
        return Effect.dieMessage("accept answered Stale to a plan without a guard")
    }
  }

  return { nowDate, decideRecord, idempotent, idempotencyClaim, shortfallError, afterAccept }
}

/** What `makeSendSupport` builds. */
export type SendSupport = ReturnType<typeof makeSendSupport>

/**
 * The answer of a send (single or bulk, API or portal): a refusal as its envelope failure with
 * `acceptance_state` (decisions §5), a send that died as 503 (`unknownOutcome`), an acceptance as
 * the success envelope with `mode: "sandbox"` and `idempotent_replay: true` where they apply
 * (decisions §26).
 */
import type { SendOutcome } from "@tuma/core"
import { Effect } from "effect"
import { requestUid } from "./Envelope.js"
import { toApiFailure, unknownOutcome } from "./Errors.js"

/** The success envelope of an accepted send. */
export const sent = <A>(outcome: SendOutcome<A>) =>
  Effect.map(requestUid, (request_uid) => ({
    success: true as const,
    request_uid,
    data: outcome.data,
    ...(outcome.sandbox ? { mode: "sandbox" as const } : {}),
    ...(outcome.idempotent_replay ? { idempotent_replay: true as const } : {})
  }))

/** Runs a send and answers it as the envelope does. */
export const sendAnswer = <A, E extends Parameters<typeof toApiFailure>[0], R>(
  send: Effect.Effect<SendOutcome<A>, E, R>
) =>
  send.pipe(
    Effect.mapError((e) => toApiFailure(e, { send: true })),
    unknownOutcome,
    Effect.flatMap(sent)
  )

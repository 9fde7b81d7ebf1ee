/**
 * The answer of a send (single or bulk, API or portal): a refusal as its envelope failure with
 * `acceptance_state` (decisions §5), a send that died as 503 (`unknownOutcome`), an acceptance as
 * the success envelope with `mode: "sandbox"` and `idempotent_replay: true` where they apply
 * (decisions §26).
 */
import type { SendCaller, SendOutcome } from "@tuma/core"
import { Effect } from "effect"
import { requestUid } from "../shared/Envelope.js"
import { toApiFailure, unknownOutcome } from "../shared/Errors.js"

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

/** What a send endpoint's handler receives: the request body and the optional `Idempotency-Key` header. */
export interface SendRequest<P> {
  readonly payload: P
  readonly headers: { readonly "idempotency-key"?: string }
}

/**
 * The handlers of a surface's send endpoints (API key or portal user): `callerOf` tells who sends
 * (given the request's Idempotency-Key); `sendAs(send.single)` is then a handler that runs that
 * send as the caller and answers it as `sendAnswer` does.
 */
export const sendHandlers = <CE, CR>(
  callerOf: (idempotencyKey: string | undefined) => Effect.Effect<SendCaller, CE, CR>
) =>
<P, A, E extends Parameters<typeof toApiFailure>[0], R>(
  send: (caller: SendCaller, payload: P) => Effect.Effect<SendOutcome<A>, E, R>
) =>
({ headers, payload }: SendRequest<P>) =>
  Effect.flatMap(callerOf(headers["idempotency-key"]), (caller) => sendAnswer(send(caller, payload)))

// Consumer 2: a strict TypeScript project (module/moduleResolution nodenext, exactOptionalPropertyTypes,
// noUncheckedIndexedAccess) type-checking a use of Tuma's public API against the published .d.ts files.
// `tsc --noEmit` must pass; each @ts-expect-error proves a type is real (a wrong use is refused).
import { analyzeBody, type Encoding, InsufficientBalance } from "@tuma/domain"
import { Ids, Operator, Reads, Send, type SendCaller, type SendError } from "@tuma/core"
import { Database, SqlContentCounter, SqlOperatorStore, SqlReadStore, SqlSendStore } from "@tuma/store-sql"
import * as DatabaseModule from "@tuma/store-sql/Database"
import { Api, Server } from "@tuma/http"
import { Effect, Layer, ManagedRuntime } from "effect"

const layer = Layer.mergeAll(Send.layer, Reads.layer, Operator.layer).pipe(
  Layer.provide(Layer.mergeAll(SqlSendStore.layer, SqlReadStore.layer, SqlOperatorStore.layer, SqlContentCounter.layer)),
  Layer.provide(Ids.layer),
  Layer.provide(Database.layer(Database.pglite("memory://")))
)
export const runtime: ManagedRuntime.ManagedRuntime<Send | Reads | Operator, unknown> = ManagedRuntime.make(layer)

const caller: SendCaller = { accountId: "a", apiKeyId: null, mode: "live" }

/** A send whose refusals are narrowed to what a backend shows its users. */
export const sendOne = (to: string): Effect.Effect<{ uid: string; units: number } | { refused: string }, never, Send> =>
  Effect.gen(function*() {
    const send = yield* Send
    const sent = yield* send.single(caller, { recipient: to, sender_id: "TUMA", body: "Habari" })
    return { uid: sent.data.uid, units: sent.data.units }
  }).pipe(
    Effect.catchTag("InsufficientBalance", (e: InsufficientBalance) =>
      Effect.succeed({ refused: `short by ${e.shortfall.map((s) => s.country).join()}` })),
    Effect.catchAll((e: Exclude<SendError, InsufficientBalance>) => Effect.succeed({ refused: e.error_code }))
  )

export const balance: Effect.Effect<number, never, Reads> = Effect.map(
  Effect.flatMap(Reads, (reads) => reads.balance("a")),
  (b) => Number(b.balance)
)

const analyzed = analyzeBody("Karibu “Tuma”")
export const encoding: Encoding["final"] = analyzed.encoding.final
export const api: typeof Api.TumaApi = Api.TumaApi
export const sameModule: typeof Database.layer = DatabaseModule.layer
export const serverLayer: typeof Server.layer = Server.layer

export const wrong = Effect.gen(function*() {
  const send = yield* Send
  // @ts-expect-error a recipient is a string
  yield* send.single(caller, { recipient: 255712345678, sender_id: "TUMA", body: "x" })
  // @ts-expect-error "sandbox" is not a caller mode
  yield* send.single({ ...caller, mode: "sandbox" }, { recipient: "+255712345678", sender_id: "TUMA", body: "x" })
})
// @ts-expect-error the error channel of a send is not never
export const unhandled: Effect.Effect<unknown, never, Send> = Effect.flatMap(Send, (s) =>
  s.single(caller, { recipient: "+255712345678", sender_id: "TUMA", body: "x" }))

/**
 * The submits of one SMPP account gathered into batches (docs/smpp.md "submit_sm and data_sm"): every
 * submit the sessions hand over while the event loop reads the sockets — a window's worth arrives in a
 * few reads — is held until the loop's check phase (`setImmediate`, no timer) and then given to the send
 * use case with the others of its account as one batch (`Send.batch`), so their accepts share one group
 * commit. Each submit still gets its own answer.
 */

/** Hands a submit to the next batch of its key; answers its own answer of that batch. */
export type Batcher<Req, Ans> = (key: string, request: Req) => Promise<Ans>

/** A batcher over `run` (one call per key and batch; its answers in the order of the requests). */
export const makeBatcher = <Req, Ans>(
  run: (requests: ReadonlyArray<Req>) => Promise<ReadonlyArray<Ans>>
): Batcher<Req, Ans> => {
  type Held = { readonly request: Req; readonly resolve: (a: Ans) => void; readonly reject: (e: unknown) => void }
  let pending = new Map<string, Array<Held>>()
  let scheduled = false
  const flush = () => {
    scheduled = false
    const batches = pending
    pending = new Map()
    for (const held of batches.values()) {
      run(held.map((h) => h.request)).then(
        (answers) =>
          held.forEach((h, i) => {
            const answer = answers[i]
            if (answer === undefined) h.reject(new Error("a batch answered fewer submits than it was given"))
            else h.resolve(answer)
          }),
        (e) => held.forEach((h) => h.reject(e))
      )
    }
  }
  return (key, request) =>
    new Promise<Ans>((resolve, reject) => {
      const held = pending.get(key)
      if (held === undefined) pending.set(key, [{ request, resolve, reject }])
      else held.push({ request, resolve, reject })
      if (!scheduled) {
        scheduled = true
        setImmediate(flush)
      }
    })
}

/**
 * The SMSC simulator of `pnpm bench:dispatch`, run as a child process (an SMSC is another machine
 * in real life; here it at least gets its own event loop instead of sharing the worker's). Tells
 * the parent its port over IPC; exits with the parent.
 */
import { SmscSimulator } from "../src/smsc/SmscSimulator.js"

const sim = new SmscSimulator({ receiptDelayMs: Number(process.env.BENCH_RECEIPT_DELAY_MS ?? 5), record: false })
sim.start().then((port) => process.send!({ type: "listening", port }))
process.on("disconnect", () => process.exit(0))

/**
 * Idle compaction of a long-running process's heap (issue 12, "a lean server process").
 *
 * V8 sizes its young generation by the busiest moment so far (start-up grows it to 2 × 16 MB, and
 * there it stays) and lets the garbage that the idle pollers promote pile up in the old generation
 * until its memory reducer runs — 30–45 s into an idle spell, then rarely. An idle `tuma serve` on
 * PostgreSQL sat at 160–180 MB RSS; after a memory-reducing collection it is at 115–125 MB
 * (docs/operations.md, "Idle compaction").
 *
 * So the process runs that collection itself once it is idle: every `checkMillis` it looks at the
 * interval just past, and when nothing was asked of it (no request started, none in flight, its CPU
 * under `idleCpuShare` of one core) and its RSS has grown `growthBytes` past what the last compaction
 * left, it asks V8 for a memory-reducing full collection — the inspector protocol's
 * `HeapProfiler.collectGarbage`, i.e. `Isolate::LowMemoryNotification` (the young generation goes back
 * to 1 MB, free pages go back to the system). About 100 ms on this machine, and only while idle: a
 * process under load never compacts, so its throughput is V8's own.
 *
 *   shouldCompact(sample, state, options) — the rule (pure)
 *   compactHeap()                         — one memory-reducing collection (resolves when done)
 *   optionsFromEnv(env)                   — `TUMA_IDLE_COMPACT_MB` read (undefined: off)
 *   start(options)                        — the check loop of `tuma serve` / `tuma worker` (unref'd timer)
 *
 * `TUMA_IDLE_COMPACT_MB` (default 16): the growth that makes an idle process compact; `0` turns it off.
 */
import { InFlight } from "../shared/Middleware.js"

/** How the rule decides. */
export interface CompactionOptions {
  /** Length of the interval between checks, in ms. */
  readonly checkMillis: number
  /** RSS growth past the last compaction's result that makes an idle process compact, in bytes. */
  readonly growthBytes: number
  /** CPU of the last interval, as a share of one core, under which the process counts as idle. */
  readonly idleCpuShare: number
}

/** What one check sees. */
export interface Sample {
  /** Requests started so far (`InFlight.started`). */
  readonly requestsStarted: number
  /** Requests being served now. */
  readonly inFlight: number
  /** CPU time used in the interval just past, in µs (user + system). */
  readonly cpuMicros: number
  /** Resident set size now, in bytes. */
  readonly rssBytes: number
}

/** What the loop remembers between checks. */
export interface State {
  /** Requests started at the previous check. */
  readonly requestsStarted: number
  /** RSS right after the last compaction (0 before the first). */
  readonly baselineRss: number
}

/** The defaults: a check every 2 s, 16 MB of growth, idle under 20 % of a core. */
export const defaultOptions: CompactionOptions = {
  checkMillis: 2_000,
  growthBytes: 16 * 1024 * 1024,
  idleCpuShare: 0.2
}

/** Whether the process is idle over the interval just past and has grown enough to compact. */
export const shouldCompact = (sample: Sample, state: State, options: CompactionOptions): boolean =>
  sample.inFlight === 0 &&
  sample.requestsStarted === state.requestsStarted &&
  sample.cpuMicros < options.checkMillis * 1_000 * options.idleCpuShare &&
  sample.rssBytes >= state.baselineRss + options.growthBytes

/** The options `TUMA_IDLE_COMPACT_MB` asks for, or `undefined` when it turns compaction off. */
export const optionsFromEnv = (
  env: { readonly TUMA_IDLE_COMPACT_MB?: string | undefined }
): CompactionOptions | undefined => {
  const raw = env.TUMA_IDLE_COMPACT_MB
  const mb = raw === undefined || raw === "" ? 16 : Number(raw)
  if (!Number.isInteger(mb) || mb < 0 || mb > 4096) {
    throw new Error(`TUMA_IDLE_COMPACT_MB: not an integer from 0 to 4096: ${raw}`)
  }
  return mb === 0 ? undefined : { ...defaultOptions, growthBytes: mb * 1024 * 1024 }
}

/**
 * One memory-reducing full collection, through an in-process inspector session (no port is opened).
 * Resolves `false` where Node was built without the inspector.
 */
export const compactHeap = async (): Promise<boolean> => {
  let inspector: typeof import("node:inspector")
  try {
    inspector = await import("node:inspector")
  } catch {
    return false
  }
  const session = new inspector.Session()
  session.connect()
  return new Promise((resolve) =>
    session.post("HeapProfiler.collectGarbage", () =>
      // disconnecting inside the callback deadlocks Node 20 (the agent still holds its lock): after it
      setImmediate(() => {
        session.disconnect()
        resolve(true)
      }))
  )
}

/**
 * Starts the check loop of this process (a timer that does not keep it alive); returns the function
 * that stops it. Without options (compaction off) it does nothing.
 */
export const start = (
  options: CompactionOptions | undefined,
  compact: () => Promise<boolean> = compactHeap
): () => void => {
  if (options === undefined) return () => {}
  let state: State = { requestsStarted: InFlight.started, baselineRss: 0 }
  let cpu = process.cpuUsage()
  let running = false
  const timer = setInterval(() => {
    if (running) return
    const used = process.cpuUsage(cpu)
    cpu = process.cpuUsage()
    const sample: Sample = {
      requestsStarted: InFlight.started,
      inFlight: InFlight.count,
      cpuMicros: used.user + used.system,
      rssBytes: process.memoryUsage.rss()
    }
    const compacting = shouldCompact(sample, state, options)
    state = { ...state, requestsStarted: sample.requestsStarted }
    if (!compacting) return
    running = true
    void compact().then(() => {
      running = false
      state = { ...state, baselineRss: process.memoryUsage.rss() }
      // the collection's own CPU is not the next interval's activity
      cpu = process.cpuUsage()
    })
  }, options.checkMillis)
  timer.unref()
  return () => clearInterval(timer)
}

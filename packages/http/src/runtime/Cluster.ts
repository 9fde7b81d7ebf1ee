/**
 * `tuma serve --workers N` (issue 12): N HTTP processes on one port (node:cluster; the primary
 * accepts connections and hands them round-robin to the workers), on PostgreSQL only.
 *
 * - **Roles.** Worker 1 is `first`: it seeds the demo (with `--demo`) and runs the delivery and
 *   webhook workers besides HTTP; the others serve HTTP only (`TUMA_WORKERS=0` for them). The rest
 *   are forked once the first is listening, so the demo and the migrations are done by then.
 *   Every limit, cache and queue is already shared through the database (architecture.md), so the
 *   processes need nothing from each other.
 * - **The primary** runs no Effect runtime and opens no database connection: it forks, prints
 *   `listening on …` once every worker listens, restarts a worker that dies (same role), and on
 *   SIGTERM/SIGINT passes the signal to every worker, waits for each to drain (10 s bound in each,
 *   Drain.ts) and exits 0.
 * - **Metrics.** With `--metrics-port` / `TUMA_METRICS_PORT` the primary owns that listener: each
 *   worker serves its own exposition on an ephemeral loopback port it reports over IPC, and a
 *   scrape of the primary fetches them all and merges them (`ObservabilityMerge`, one
 *   `process="<n>"` label per worker), so one scrape shows the whole server.
 * - `--workers 1` (the default) is the single process of before; `auto` is the number of cores.
 *   More than one on the embedded database is refused: PGlite allows one process.
 */
import cluster from "node:cluster"
import type { Worker } from "node:cluster"
import { createServer } from "node:http"
import { availableParallelism } from "node:os"
import { mergeExpositions } from "../observability/Merge.js"

/** `--workers` / `TUMA_HTTP_WORKERS`: a positive integer or `auto` (the number of cores). */
export const parseWorkers = (value: string | undefined, cores: number = availableParallelism()): number => {
  if (value === undefined || value === "") return 1
  if (value === "auto") return Math.max(1, cores)
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1 || n > 64) {
    throw new Error(`--workers: a number from 1 to 64 or "auto", not ${value}`)
  }
  return n
}

/** Why N processes cannot run on this database, or undefined when they can. */
export const refusal = (workers: number, database: { readonly _tag: string }): string | undefined =>
  workers > 1 && database._tag !== "Postgres"
    ? `--workers ${workers}: several server processes need PostgreSQL (DATABASE_URL); ` +
      "the embedded database allows one process. Run with --workers 1 or set DATABASE_URL."
    : undefined

/** What a worker tells the primary. */
export type WorkerMessage =
  | { readonly tuma: "listening"; readonly url: string; readonly smpp?: string | undefined }
  | { readonly tuma: "metrics"; readonly url: string }

/** In a worker of `--workers N`: its index (1…N) and whether it is the first. */
export const workerRole = (env: Record<string, string | undefined> = process.env) =>
  cluster.isWorker ? { index: Number(env.TUMA_CLUSTER_INDEX ?? "1"), first: env.TUMA_CLUSTER_INDEX === "1" } : undefined

/** In a worker, sends a message to the primary; elsewhere does nothing. */
export const tell = (message: WorkerMessage) => {
  if (cluster.isWorker && process.send !== undefined) process.send(message)
}

/** Runs the primary of `tuma serve --workers N`; resolves when it has stopped (then the caller exits). */
export const runPrimary = (options: {
  readonly workers: number
  readonly metrics: { readonly port: number | undefined; readonly host: string }
}): Promise<void> =>
  new Promise((resolveStopped) => {
    const { workers } = options
    const byIndex = new Map<number, Worker>()
    const metricsUrls = new Map<number, string>()
    let listening = 0
    let url: string | undefined
    let smpp: string | undefined
    let stopping = false
    let announced = false

    const announce = async () => {
      if (announced || listening < workers || url === undefined) return
      announced = true
      console.log(`listening on ${url}`)
      console.log(`portal: ${url}/portal`)
      if (smpp !== undefined) console.log(`smpp listening on ${smpp}`)
      console.log(`${workers} server processes (pids ${[...byIndex.values()].map((w) => w.process.pid).join(", ")})`)
      if (options.metrics.port !== undefined) {
        const server = createServer((req, res) => {
          if (req.method !== "GET" || (req.url ?? "").split("?", 1)[0] !== "/metrics") {
            res.writeHead(404).end()
            return
          }
          void Promise.all(
            [...metricsUrls].sort((a, b) => a[0] - b[0]).map(async ([index, workerUrl]) => {
              try {
                const r = await fetch(workerUrl, { signal: AbortSignal.timeout(5_000) })
                return { process: String(index), text: await r.text() }
              } catch {
                return { process: String(index), text: "" } // a worker restarting: its series are absent once
              }
            })
          ).then((parts) => {
            res.writeHead(200, { "content-type": "text/plain; version=0.0.4; charset=utf-8" })
            res.end(mergeExpositions(parts))
          })
        })
        server.listen(options.metrics.port, options.metrics.host, () => {
          const a = server.address()
          const port = typeof a === "object" && a !== null ? a.port : options.metrics.port
          console.log(`metrics on http://${options.metrics.host}:${port}/metrics`)
        })
        server.unref()
      }
    }

    const fork = (index: number) => {
      const worker = cluster.fork({
        TUMA_CLUSTER_INDEX: String(index),
        // only the first runs delivery and webhook workers (and seeds the demo)
        ...(index === 1 ? {} : { TUMA_WORKERS: "0" }),
        // each worker's exposition on an ephemeral loopback port, merged by the primary
        ...(options.metrics.port !== undefined ? { TUMA_METRICS_PORT: "0", TUMA_METRICS_HOST: "127.0.0.1" } : {})
      })
      byIndex.set(index, worker)
      worker.on("message", (message: WorkerMessage) => {
        if (message?.tuma === "listening") {
          url = message.url
          smpp = message.smpp ?? smpp
          listening++
          if (index === 1 && byIndex.size === 1) { for (let i = 2; i <= workers; i++) fork(i) }
          void announce()
        } else if (message?.tuma === "metrics") {
          metricsUrls.set(index, message.url)
        }
      })
      worker.on("exit", (code, signal) => {
        byIndex.delete(index)
        metricsUrls.delete(index)
        if (stopping) {
          if (byIndex.size === 0) resolveStopped()
          return
        }
        if (!announced && index === 1) {
          // the first never came up (bad configuration, database down): nothing to serve
          console.error(`server process 1 exited (${signal ?? code}) before listening`)
          process.exit(1)
        }
        console.error(`server process ${index} (pid ${worker.process.pid}) exited (${signal ?? code}); restarting it`)
        listening--
        fork(index)
      })
    }

    const stop = (signal: NodeJS.Signals) => {
      if (stopping) return
      stopping = true
      console.log(`${signal}: stopping ${byIndex.size} server processes`)
      if (byIndex.size === 0) resolveStopped()
      for (const worker of byIndex.values()) worker.process.kill(signal)
    }
    process.on("SIGINT", () => stop("SIGINT"))
    process.on("SIGTERM", () => stop("SIGTERM"))
    fork(1)
  })

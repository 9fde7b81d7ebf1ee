/**
 * Process and Node runtime metrics (names as the Prometheus client libraries use them), sampled at
 * scrape time; garbage collections counted as they happen. Registered by the metrics listener.
 */
import * as M from "@tuma/core/observability/Metrics"
import { Effect, Metric, MetricBoundaries } from "effect"
import { monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks"

const cpuUser = Metric.counter("process_cpu_user_seconds_total", {
  description: "User CPU time spent by the process, in seconds.",
  incremental: true
})
const cpuSystem = Metric.counter("process_cpu_system_seconds_total", {
  description: "System CPU time spent by the process, in seconds.",
  incremental: true
})
const rss = Metric.gauge("process_resident_memory_bytes", { description: "Resident memory size in bytes." })
const startTime = Metric.gauge("process_start_time_seconds", {
  description: "Start time of the process since the Unix epoch, in seconds."
})
const heapTotal = Metric.gauge("nodejs_heap_size_total_bytes", { description: "V8 heap size in bytes." })
const heapUsed = Metric.gauge("nodejs_heap_size_used_bytes", { description: "V8 heap used in bytes." })
const external = Metric.gauge("nodejs_external_memory_bytes", { description: "Memory of C++ objects bound to JS." })
const resources = Metric.gauge("nodejs_active_resources", {
  description: "Resources (handles, requests, timers) keeping the event loop alive."
})
const lagMean = Metric.gauge("nodejs_eventloop_lag_mean_seconds", {
  description: "Mean event loop delay since the previous scrape, in seconds."
})
const lagP99 = Metric.gauge("nodejs_eventloop_lag_p99_seconds", {
  description: "99th percentile of the event loop delay since the previous scrape, in seconds."
})
const lagMax = Metric.gauge("nodejs_eventloop_lag_max_seconds", {
  description: "Largest event loop delay since the previous scrape, in seconds."
})
const gcDuration = Metric.histogram(
  "nodejs_gc_duration_seconds",
  MetricBoundaries.fromIterable([0.001, 0.01, 0.1, 1, 2, 5]),
  "Garbage collection pauses by kind, in seconds."
)
const versionInfo = Metric.gauge("nodejs_version_info", { description: "Node.js version (value 1)." })

export const names: ReadonlyArray<string> = [
  "process_cpu_user_seconds_total",
  "process_cpu_system_seconds_total",
  "process_resident_memory_bytes",
  "process_start_time_seconds",
  "nodejs_heap_size_total_bytes",
  "nodejs_heap_size_used_bytes",
  "nodejs_external_memory_bytes",
  "nodejs_active_resources",
  "nodejs_eventloop_lag_mean_seconds",
  "nodejs_eventloop_lag_p99_seconds",
  "nodejs_eventloop_lag_max_seconds",
  "nodejs_gc_duration_seconds",
  "nodejs_version_info"
]

const GC_KINDS: Record<number, string> = { 1: "minor", 2: "major", 4: "incremental", 8: "weakcb", 16: "incremental" }
const gcKind = new M.Labelled(gcDuration, ["kind"])

/** Starts the runtime sampling for as long as the scope lives. */
export const register = Effect.gen(function*() {
  const delay = monitorEventLoopDelay({ resolution: 20 })
  const gc = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const detail: unknown = "detail" in entry ? entry.detail : undefined
      const kind = typeof detail === "object" && detail !== null && "kind" in detail && typeof detail.kind === "number"
        ? detail.kind
        : 0
      gcKind.update(entry.duration / 1000, GC_KINDS[kind] ?? "other")
    }
  })
  yield* Effect.acquireRelease(
    Effect.sync(() => {
      delay.enable()
      gc.observe({ entryTypes: ["gc"] })
    }),
    () =>
      Effect.sync(() => {
        delay.disable()
        gc.disconnect()
      })
  )
  startTime.unsafeUpdate(Math.round((Date.now() - performance.now()) / 1000), [])
  new M.Labelled(versionInfo, ["version"]).update(1, process.version)
  // the first scrape counts the CPU used since the process started
  let last = { user: 0, system: 0 }
  yield* M.registerSampler(Effect.sync(() => {
    const cpu = process.cpuUsage()
    cpuUser.unsafeUpdate(Math.max(0, cpu.user - last.user) / 1e6, [])
    cpuSystem.unsafeUpdate(Math.max(0, cpu.system - last.system) / 1e6, [])
    last = cpu
    const mem = process.memoryUsage()
    rss.unsafeUpdate(mem.rss, [])
    heapTotal.unsafeUpdate(mem.heapTotal, [])
    heapUsed.unsafeUpdate(mem.heapUsed, [])
    external.unsafeUpdate(mem.external, [])
    resources.unsafeUpdate(process.getActiveResourcesInfo().length, [])
    if (delay.count > 0) {
      lagMean.unsafeUpdate(delay.mean / 1e9, [])
      lagP99.unsafeUpdate(delay.percentile(99) / 1e9, [])
      lagMax.unsafeUpdate(delay.max / 1e9, [])
    }
    delay.reset()
  }))
})

/**
 * The verdict of `pnpm bench:day`: the printed lines (checks, throughput per bind and per provider over the
 * backlogged seconds, delays, queue, CPU per message) and the plot (queue depth, throughput, delays over
 * the run).
 */
import type { LoadResult } from "./load.js"
import { figure, figureSize, type Panel, renderPng } from "./plot.js"
import type { Checks, DelaySlice } from "./report.js"
import {
  backlogAt,
  backloggedThroughput,
  quantile,
  type Sample,
  sumSeries,
  type Throughput,
  windowed
} from "./series.js"

/** The loopback carrier's counters (smsc.ts). */
export interface CarrierStats {
  readonly startedAt: number
  readonly liveBinds: number
  readonly binds: ReadonlyArray<{ n: number; accepted: number; throttled: number; perSecond: Array<number | null> }>
  readonly accepted: number
  readonly receiptsAcked: number
  readonly receiptsAckedTwice: number
  readonly receiptsWaiting: number
  readonly receiptsSent: number
  readonly receiptsNacked: number
  readonly ids?: ReadonlyArray<string>
}

/** One sample of the run (about one a second). */
export interface RunSample extends Sample {
  readonly queue: number
  readonly accepted: number
  readonly atCarrier: number
  readonly awaitingReceipt: number
  readonly load: number
}

const f = (x: number, digits = 2) => (Number.isFinite(x) ? x.toFixed(digits) : "n/a")
const rate = (name: string, t: Throughput) =>
  `${name}: median=${f(t.median, 0)}/s p90=${f(t.p90, 0)}/s peak=${t.peak}/s limit=${t.limit}/s ratio=${
    f(t.ratio, 3)
  } over ${t.seconds} backlogged s`

/** Summarises the run: the lines to print, the caption of the plot, the carrier's series, and whether every check passed. */
export const summarise = (input: {
  readonly checks: Checks
  readonly stats: CarrierStats
  readonly samples: ReadonlyArray<RunSample>
  readonly perProvider: ReadonlyMap<string, ReadonlyArray<number>>
  readonly result: LoadResult
  readonly whole: DelaySlice
  readonly run: {
    readonly startedAtEpoch: number
    readonly offeredS: number
    readonly finalS: number
    readonly cpuS: number
    readonly binds: number
    readonly bindRate: number
    /** Rows in `dispatch_queue` from which a second counts as backlogged. */
    readonly backlog: number
    readonly load: string
  }
}) => {
  const { checks, result, run, samples, stats, whole } = input
  const shift = Math.round((run.startedAtEpoch - stats.startedAt) / 1000)
  const carrierPerSecond = stats.binds.map((b) => b.perSecond.slice(Math.max(0, shift)).map((v) => v ?? 0))
  const limit = run.binds * run.bindRate
  const backlogged = backlogAt(samples, "queue", run.backlog)
  const statuses = [...result.statuses].map(([s, n]) => `${s}:${n}`).join(",")
  const final = Object.entries(checks.byStatus).map(([s, n]) => `${s}:${n}`).join(",")
  const delivered = checks.byStatus.delivered ?? 0
  const ok = checks.lost === 0 && checks.unfinished === 0 && checks.unknownReference === 0 &&
    checks.pendingReceipts === 0 && checks.receiptsMatched === delivered && checks.stored === checks.accepted
  const queue = samples.map((s) => s.queue)
  const lines = [
    `bench-day: accepted=${checks.accepted} stored=${checks.stored} lost=${checks.lost} statuses=${final} ` +
    `unfinished=${checks.unfinished} skipped=${result.skipped} http=${statuses} nothing_lost=${
      checks.lost === 0 && checks.unfinished === 0
    }`,
    `bench-day: receipts carrier_accepted=${stats.accepted} acked=${stats.receiptsAcked} acked_twice=${stats.receiptsAckedTwice} ` +
    `nacked=${stats.receiptsNacked} matched=${checks.receiptsMatched}/${delivered} unknown_reference=${checks.unknownReference} ` +
    `carrier_ids_without_message=${checks.orphanIds} pending=${checks.pendingReceipts} receipts_matched=${
      checks.receiptsMatched === delivered && checks.pendingReceipts === 0
    }`,
    ...stats.binds.map((b, i) =>
      `bench-day: bind ${b.n} accepted=${b.accepted} throttled=${b.throttled} ` +
      rate("rate", backloggedThroughput(carrierPerSecond[i] ?? [], backlogged, run.bindRate))
    ),
    `bench-day: carrier ${rate("all binds", backloggedThroughput(sumSeries(carrierPerSecond), backlogged, limit))}`,
    ...[...input.perProvider].map(([name, series]) =>
      `bench-day: provider ${name} sent ${rate("rate", backloggedThroughput(series, backlogged, limit))}`
    ),
    `bench-day: delay accept_to_sent p50=${f(whole.sentP50)}s p95=${f(whole.sentP95)}s ` +
    `sent_to_delivered p50=${f(whole.deliveredP50)}s p95=${f(whole.deliveredP95)}s (carrier receipt delay 1 s)`,
    `bench-day: queue p50=${quantile(queue, 0.5)} max=${Math.max(0, ...queue)} campaign_accept_ms p50=${
      f(quantile(result.campaignMs, 0.5), 0)
    } p95=${f(quantile(result.campaignMs, 0.95), 0)} single_max_lag_ms=${f(result.maxLagMs, 0)}`,
    `bench-day: offered_s=${f(run.offeredS, 1)} all_final_s=${f(run.finalS, 1)} cpu_s=${f(run.cpuS, 1)} ` +
    `cpu_us_per_msg=${f((run.cpuS * 1e6) / Math.max(1, checks.accepted), 0)} load_median=${
      f(quantile(samples.map((s) => s.load), 0.5))
    } load_end=${run.load} ok=${ok}`
  ]
  const caption = `${checks.accepted} messages, ${run.binds} binds × ${run.bindRate}/s; ` +
    `accept→sent p50 ${f(whole.sentP50)} s, sent→delivered p50 ${f(whole.deliveredP50)} s; load ${
      f(quantile(samples.map((s) => s.load), 0.5), 1)
    }`
  return { lines, caption, carrierPerSecond, ok }
}

const COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd"]

/** Draws the run into a PNG: offered load, queue depth, throughput per bind and in total, delays by acceptance time. */
export const drawDay = (
  path: string,
  data: {
    readonly samples: ReadonlyArray<RunSample>
    readonly slices: ReadonlyArray<DelaySlice>
    readonly carrier: ReadonlyArray<ReadonlyArray<number>>
    readonly acceptedPerSecond: ReadonlyArray<number | undefined>
  },
  options: { readonly binds: number; readonly bindRate: number; readonly caption: string }
) => {
  const x = "seconds since the start of the run"
  // one point per second up to 5 minutes, then means over windows (about 300 points a line)
  const width = Math.max(1, Math.round(data.acceptedPerSecond.length / 300))
  const perSecond = (s: ReadonlyArray<number | undefined>) => windowed(s, width)
  const per = width > 1 ? ` (means over ${width} s)` : ""

  const panels: Array<Panel> = [
    {
      title: `Offered load: messages accepted per second (single sends and campaigns)${per}`,
      xLabel: x,
      yLabel: "messages / s",
      series: [{ name: "accepted (HTTP)", color: "#555", points: perSecond(data.acceptedPerSecond) }],
      references: [{
        y: options.binds * options.bindRate,
        label: `carrier limit ${options.binds * options.bindRate}/s`
      }]
    },
    {
      title: "Queue depth",
      xLabel: x,
      yLabel: "messages",
      series: [
        { name: "dispatch_queue rows", color: COLORS[0]!, points: data.samples.map((s) => [s.t, s.queue]) },
        {
          name: "at the carrier, no receipt yet",
          color: COLORS[1]!,
          points: data.samples.map((s) => [s.t, s.awaitingReceipt])
        }
      ]
    },
    {
      title: `Throughput at the carrier (submits accepted per second)${per}`,
      xLabel: x,
      yLabel: "messages / s",
      series: [
        { name: "carrier, all binds", color: COLORS[3]!, points: perSecond(sumSeries(data.carrier)) },
        ...data.carrier.map((s, i) => ({ name: `bind ${i + 1}`, color: COLORS[i % 3]!, points: perSecond(s) }))
      ],
      references: [
        { y: options.bindRate, label: `${options.bindRate}/s per bind` },
        { y: options.binds * options.bindRate, label: `carrier limit ${options.binds * options.bindRate}/s` }
      ]
    },
    {
      title: "Delay by acceptance time",
      xLabel: x,
      yLabel: "seconds",
      series: [
        { name: "accept → sent p50", color: COLORS[0]!, points: data.slices.map((d) => [d.t, d.sentP50]) },
        { name: "accept → sent p95", color: COLORS[4]!, points: data.slices.map((d) => [d.t, d.sentP95]) },
        { name: "sent → delivered p50", color: COLORS[2]!, points: data.slices.map((d) => [d.t, d.deliveredP50]) }
      ]
    }
  ]
  renderPng(figure(panels, options.caption), figureSize(panels.length), path)
}

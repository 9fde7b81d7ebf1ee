/**
 * The pure arithmetic of `pnpm bench:day`: the day's plan (when each campaign and single send arrives,
 * seeded so runs compare), percentiles, and the throughput of a per-second series over the seconds that
 * had a backlog (when the carrier, not the offered load, should be the limit).
 */

/** A seeded pseudo-random generator (mulberry32): the same seed gives the same day. */
export const seeded = (seed: number) => {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** The load of the simulated hour: how many of each, over how long (ms of real time). */
export interface DayLoad {
  readonly campaigns: number
  readonly singles: number
  /** The simulated hour's length in real ms (3,600,000 / the time-compression factor). */
  readonly spanMs: number
  readonly seed: number
}

/** When each arrival is due, in ms from the start, ascending. */
export interface DayPlan {
  readonly campaigns: ReadonlyArray<number>
  readonly singles: ReadonlyArray<number>
}

/**
 * The hour's arrivals: campaigns at uniformly random moments, single sends as a uniform random stream
 * (what many independent senders add up to), both sorted.
 */
export const planDay = (load: DayLoad): DayPlan => {
  const random = seeded(load.seed)
  const times = (n: number) => Array.from({ length: n }, () => Math.floor(random() * load.spanMs)).sort((a, b) => a - b)
  return { campaigns: times(load.campaigns), singles: times(load.singles) }
}

/** Scales the full day (500 campaigns, 100,000 single sends) by `scale`, keeping at least one of each. */
export const scaledLoad = (scale: number, compression: number, seed = 1): DayLoad => ({
  campaigns: Math.max(1, Math.round(500 * scale)),
  singles: Math.max(1, Math.round(100_000 * scale)),
  spanMs: Math.round(3_600_000 / compression),
  seed
})

/** The q-quantile (0…1) of the values by nearest rank; NaN when there are none. */
export const quantile = (values: ReadonlyArray<number>, q: number): number => {
  if (values.length === 0) return NaN
  const sorted = [...values].sort((a, b) => a - b)
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))
  return sorted[rank]!
}

/** The element-wise sum of per-second series of different lengths (a hole counts 0). */
export const sumSeries = (series: ReadonlyArray<ReadonlyArray<number | undefined>>): Array<number> => {
  const length = Math.max(0, ...series.map((s) => s.length))
  return Array.from({ length }, (_, i) => series.reduce((sum, s) => sum + (s[i] ?? 0), 0))
}

/**
 * Averages a per-second series over windows of `width` seconds, answered as (mid-window second, mean)
 * points (a long run's per-second lines are too dense to read).
 */
export const windowed = (perSecond: ReadonlyArray<number | undefined>, width: number) => {
  const w = Math.max(1, Math.round(width))
  const points: Array<readonly [number, number]> = []
  for (let start = 0; start < perSecond.length; start += w) {
    const end = Math.min(perSecond.length, start + w)
    let sum = 0
    for (let i = start; i < end; i++) sum += perSecond[i] ?? 0
    points.push([start + (end - start - 1) / 2, sum / (end - start)] as const)
  }
  return points
}

/** Throughput of a per-second series over the given seconds: median, 90th percentile, peak, ratio to the limit. */
export interface Throughput {
  readonly seconds: number
  readonly median: number
  readonly p90: number
  readonly peak: number
  readonly limit: number
  /** median ÷ limit. */
  readonly ratio: number
}

/**
 * The throughput of `perSecond` (count per second) over the seconds where `backlogged(second)` holds,
 * leaving out the first and last such second of each stretch (partial seconds), against `limit`.
 */
export const backloggedThroughput = (
  perSecond: ReadonlyArray<number | undefined>,
  backlogged: (second: number) => boolean,
  limit: number
): Throughput => {
  const values: Array<number> = []
  for (let s = 0; s < perSecond.length; s++) {
    if (backlogged(s) && backlogged(s - 1) && backlogged(s + 1)) values.push(perSecond[s] ?? 0)
  }
  const median = quantile(values, 0.5)
  return {
    seconds: values.length,
    median,
    p90: quantile(values, 0.9),
    peak: Math.max(0, ...Array.from(perSecond, (v) => v ?? 0)),
    limit,
    ratio: median / limit
  }
}

/** A sample of the run: seconds since the start and named values. */
export interface Sample {
  readonly t: number
  readonly [name: string]: number
}

/**
 * Whether the queue had a backlog at second `s`, from samples taken about once a second: the sample
 * nearest to `s` saw at least `threshold` messages waiting.
 */
export const backlogAt = (samples: ReadonlyArray<Sample>, key: string, threshold: number) => (s: number) => {
  let best: Sample | undefined
  for (const x of samples) if (best === undefined || Math.abs(x.t - s) < Math.abs(best.t - s)) best = x
  return best !== undefined && Math.abs(best.t - s) <= 1.5 && (best[key] ?? 0) >= threshold
}

/**
 * Idle compaction (IdleCompaction.ts): the rule (idle = no request started, none in flight, CPU under
 * its share; and grown past the last compaction), the variable, the loop that applies the rule, and the
 * collection itself in a real process: the young generation back to its smallest, the process still
 * running its event loop afterwards (disconnecting inside the inspector's callback deadlocks Node 20).
 */
import { spawnSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import { afterEach, expect, it } from "vitest"
import type { CompactionOptions, Sample, State } from "../src/runtime/IdleCompaction.js"
import { defaultOptions, optionsFromEnv, shouldCompact, start } from "../src/runtime/IdleCompaction.js"
import { InFlight } from "../src/shared/Middleware.js"

const MB = 1024 * 1024
const options: CompactionOptions = { checkMillis: 2_000, growthBytes: 16 * MB, idleCpuShare: 0.2 }
const state: State = { requestsStarted: 7, baselineRss: 100 * MB }
const idleGrown: Sample = { requestsStarted: 7, inFlight: 0, cpuMicros: 50_000, rssBytes: 120 * MB }

it("compacts an idle process that grew past its last compaction, and only then", () => {
  expect(shouldCompact(idleGrown, state, options)).toBe(true)
  // a request started in the interval, or one still in flight: not idle
  expect(shouldCompact({ ...idleGrown, requestsStarted: 8 }, state, options)).toBe(false)
  expect(shouldCompact({ ...idleGrown, inFlight: 1 }, state, options)).toBe(false)
  // 20 % of one core over 2 s is 400 ms of CPU: at it, busy; under it, idle
  expect(shouldCompact({ ...idleGrown, cpuMicros: 400_000 }, state, options)).toBe(false)
  expect(shouldCompact({ ...idleGrown, cpuMicros: 399_999 }, state, options)).toBe(true)
  // grown by less than the threshold since the last compaction: nothing to gain
  expect(shouldCompact({ ...idleGrown, rssBytes: 116 * MB - 1 }, state, options)).toBe(false)
  expect(shouldCompact({ ...idleGrown, rssBytes: 116 * MB }, state, options)).toBe(true)
  // before the first compaction the baseline is 0: the first idle interval compacts
  expect(shouldCompact(idleGrown, { ...state, baselineRss: 0 }, options)).toBe(true)
})

it("TUMA_IDLE_COMPACT_MB: 16 MB by default, the variable's value, off at 0, a bad value refused", () => {
  expect(optionsFromEnv({})).toEqual(defaultOptions)
  expect(defaultOptions.growthBytes).toBe(16 * MB)
  expect(optionsFromEnv({ TUMA_IDLE_COMPACT_MB: "" })).toEqual(defaultOptions)
  expect(optionsFromEnv({ TUMA_IDLE_COMPACT_MB: "40" })?.growthBytes).toBe(40 * MB)
  expect(optionsFromEnv({ TUMA_IDLE_COMPACT_MB: "0" })).toBeUndefined()
  for (const bad of ["-1", "1.5", "lots", "4097"]) {
    expect(() => optionsFromEnv({ TUMA_IDLE_COMPACT_MB: bad })).toThrow(/TUMA_IDLE_COMPACT_MB/)
  }
})

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
let stop = () => {}
afterEach(() => {
  stop()
  InFlight.count = 0
})

it("the loop compacts while idle, never while a request is in flight, starts or the CPU is busy", async () => {
  let compactions = 0
  const compact = async () => {
    compactions++
    return true
  }
  // no growth needed, so only idleness decides
  stop = start({ checkMillis: 100, growthBytes: 0, idleCpuShare: 0.2 }, compact)
  await sleep(450)
  expect(compactions).toBeGreaterThanOrEqual(1)

  // a request in flight throughout
  InFlight.count = 1
  await sleep(150)
  const during = compactions
  await sleep(400)
  expect(compactions).toBe(during)
  InFlight.count = 0

  // a request started in every interval
  const starts = setInterval(() => InFlight.started++, 20)
  await sleep(150)
  const busy = compactions
  await sleep(400)
  clearInterval(starts)
  expect(compactions).toBe(busy)

  // the CPU busy through the interval (the check runs after the spin: the whole interval was work)
  await sleep(150)
  const before = compactions
  const until = Date.now() + 300
  while (Date.now() < until) Math.sqrt(Math.random())
  await sleep(50)
  expect(compactions).toBe(before)
})

it("the loop is off without options", async () => {
  let compactions = 0
  stop = start(undefined, async () => {
    compactions++
    return true
  })
  await sleep(300)
  expect(compactions).toBe(0)
})

it("a compaction shrinks the young generation to its smallest and the process carries on", () => {
  const module = fileURLToPath(new URL("../src/runtime/IdleCompaction.ts", import.meta.url))
  const script = `
    const { getHeapSpaceStatistics } = await import("node:v8")
    const { compactHeap } = await import(${JSON.stringify(module)})
    const young = () => getHeapSpaceStatistics().find((s) => s.space_name === "new_space").space_size
    // objects that live a while make V8 grow its young generation, as start-up does
    let keep = []
    for (let i = 0; i < 3e6; i++) { keep.push({ i, s: "x" + i }); if (keep.length > 200000) keep = [] }
    keep = null
    const before = young()
    const done = await compactHeap()
    const after = young()
    // the event loop still runs timers after the collection
    await new Promise((r) => setTimeout(r, 10))
    console.log(JSON.stringify({ before, after, done }))
  `
  const run = spawnSync(
    process.execPath,
    ["--conditions=@tuma/source", "--import", "tsx", "--input-type=module", "-e", script],
    { encoding: "utf8", timeout: 60_000 }
  )
  expect(run.status).toBe(0)
  const { after, before, done } = JSON.parse(run.stdout.trim().split("\n").at(-1)!)
  expect(done).toBe(true)
  expect(before).toBeGreaterThanOrEqual(8 * MB)
  expect(after).toBeLessThanOrEqual(2 * MB)
})

it("tuma serve and tuma worker refuse a bad TUMA_IDLE_COMPACT_MB at once", () => {
  const bin = fileURLToPath(new URL("../src/bin.ts", import.meta.url))
  for (const command of ["serve", "worker"]) {
    const run = spawnSync(process.execPath, ["--conditions=@tuma/source", "--import", "tsx", bin, command], {
      env: { ...process.env, TUMA_IDLE_COMPACT_MB: "lots", PORT: "0", DATABASE_URL: "postgres://nowhere.invalid/x" },
      encoding: "utf8",
      timeout: 60_000
    })
    expect(run.status).toBe(1)
    expect(run.stderr).toContain("TUMA_IDLE_COMPACT_MB: not an integer from 0 to 4096: lots")
  }
})

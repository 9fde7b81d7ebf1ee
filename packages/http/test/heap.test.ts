/**
 * The heap settings of `tuma serve` / `tuma worker` (Heap.ts): V8's growing factor fixed at 2 by
 * default, from TUMA_HEAP_GROWING_PERCENT otherwise, 0 leaving V8's own; a bad value stops the
 * command before it starts anything, with the variable named.
 */
import { spawnSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import { expect, it } from "vitest"
import { heapFlags, tuneHeap } from "../src/runtime/Heap.js"

it("the growing percent: 100 by default, the variable's value, none at 0", () => {
  expect(heapFlags({})).toEqual(["--heap-growing-percent=100"])
  expect(heapFlags({ TUMA_HEAP_GROWING_PERCENT: "" })).toEqual(["--heap-growing-percent=100"])
  expect(heapFlags({ TUMA_HEAP_GROWING_PERCENT: "50" })).toEqual(["--heap-growing-percent=50"])
  expect(heapFlags({ TUMA_HEAP_GROWING_PERCENT: "0" })).toEqual([])
  for (const bad of ["-1", "1.5", "fifty", "1001"]) {
    expect(() => heapFlags({ TUMA_HEAP_GROWING_PERCENT: bad })).toThrow(/TUMA_HEAP_GROWING_PERCENT/)
  }
})

it("tuneHeap hands the flags to V8", () => {
  const set: Array<string> = []
  tuneHeap({ TUMA_HEAP_GROWING_PERCENT: "75" }, (f) => set.push(f))
  expect(set).toEqual(["--heap-growing-percent=75"])
})

it("tuma serve and tuma worker read the variable before anything else: a bad value is refused at once", () => {
  const bin = fileURLToPath(new URL("../src/bin.ts", import.meta.url))
  for (const command of ["serve", "worker"]) {
    const run = spawnSync(process.execPath, ["--conditions=@tuma/source", "--import", "tsx", bin, command], {
      env: {
        ...process.env,
        TUMA_HEAP_GROWING_PERCENT: "lots",
        PORT: "0",
        DATABASE_URL: "postgres://nowhere.invalid/x"
      },
      encoding: "utf8",
      timeout: 60_000
    })
    expect(run.status).toBe(1)
    expect(run.stderr).toContain("TUMA_HEAP_GROWING_PERCENT: not an integer from 0 to 1000: lots")
  }
})

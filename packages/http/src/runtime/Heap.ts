/**
 * The V8 heap settings of a long-running `tuma serve` / `tuma worker` process.
 *
 * Under the send load V8 lets the old generation grow to about four times what survives a full
 * collection before it collects again (its growing factor adapts up to 4 when collections are
 * cheap): ≈ 66–90 MB live became ≈ 220 MB of old space and 330–360 MB RSS, held until the process
 * idled. `--heap-growing-percent=100` fixes the factor at 2: ≈ 230 MB RSS at the end of the same load.
 * A factor of 1.5 (50, the first default) held it at ≈ 205 MB but cost bulk acceptance 13–15 % of
 * its throughput in full collections (docs/operations.md, "The heap growing factor").
 * The flag is read by V8 at each collection, so it can be set from inside the process (unlike the
 * young generation's size, fixed when the heap is created: V8's default of 16 MB semi-spaces is kept).
 *
 * `TUMA_HEAP_GROWING_PERCENT` (default 100; `0` leaves V8's own adaptive factor).
 */
import { setFlagsFromString } from "node:v8"

/** The growing percent when `TUMA_HEAP_GROWING_PERCENT` is unset. */
export const DEFAULT_HEAP_GROWING_PERCENT = 100

/** The V8 flags the environment asks for (none when the percent is 0). */
export const heapFlags = (env: { readonly TUMA_HEAP_GROWING_PERCENT?: string | undefined }): ReadonlyArray<string> => {
  const raw = env.TUMA_HEAP_GROWING_PERCENT
  const percent = raw === undefined || raw === "" ? DEFAULT_HEAP_GROWING_PERCENT : Number(raw)
  if (!Number.isInteger(percent) || percent < 0 || percent > 1000) {
    throw new Error(`TUMA_HEAP_GROWING_PERCENT: not an integer from 0 to 1000: ${raw}`)
  }
  return percent === 0 ? [] : [`--heap-growing-percent=${percent}`]
}

/** Applies `heapFlags(env)` to this process's V8 (`set` is for tests). */
export const tuneHeap = (
  env: { readonly TUMA_HEAP_GROWING_PERCENT?: string | undefined },
  set: (flag: string) => void = setFlagsFromString
): void => {
  for (const flag of heapFlags(env)) set(flag)
}

/**
 * The `ContentCounter` port: fixed-window counters shared by every process of one deployment, for
 * the duplicate-content limit (decisions §7, `send/DuplicateContent.ts`).
 *
 * `take` adds one to the counter of `key` in a fixed window of `window`; it answers
 * `Option.none()` while the count stays within `limit`, and `Option.some(retryAfter)` (the time left
 * in the window) when this one would pass it — and then the counter does not move. A counter that
 * does not exist or whose window ended starts again at one. Keys may be long (they carry the text of
 * a message): an adapter that stores them keeps a digest. `ContentCounterUnavailable` says the
 * counter could not be read (the rule then lets the send through and logs it).
 *
 * Adapters: `SqlContentCounter` in @tuma/store-sql (one upsert on the shared database, through
 * @effect/experimental's `RateLimiter`), `ContentCounter.layerMemory` here (one process).
 */
import { Clock, Context, Data, Duration, Effect, Layer, Option } from "effect"

/** The counter could not be read or written (its store is unavailable). */
export class ContentCounterUnavailable extends Data.TaggedError("ContentCounterUnavailable")<{
  readonly cause: unknown
}> {}

/** The port; see the module comment. */
export class ContentCounter extends Context.Tag("@tuma/core/ContentCounter")<ContentCounter, {
  readonly take: (
    key: string,
    window: Duration.Duration,
    limit: number
  ) => Effect.Effect<Option.Option<Duration.Duration>, ContentCounterUnavailable>
}>() {
  /** Counters in this process's memory, on Effect's `Clock`: exact for one process only. */
  static readonly layerMemory: Layer.Layer<ContentCounter> = Layer.sync(ContentCounter, () => {
    const counters = new Map<string, { count: number; endsAt: number }>()
    return ContentCounter.of({
      take: (key, window, limit) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          Effect.sync(() => {
            let counter = counters.get(key)
            if (counter === undefined || counter.endsAt <= now) {
              if (counters.size > 10_000) {
                for (const [k, c] of counters) if (c.endsAt <= now) counters.delete(k)
              }
              counter = { count: 0, endsAt: now + Duration.toMillis(window) }
              counters.set(key, counter)
            }
            if (counter.count + 1 > limit) return Option.some(Duration.millis(counter.endsAt - now))
            counter.count += 1
            return Option.none()
          }))
    })
  })
}

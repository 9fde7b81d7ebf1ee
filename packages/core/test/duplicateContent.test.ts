/**
 * decisions §7, the duplicate-content limit as core applies it (`send/DuplicateContent.ts`), on the
 * in-memory `ContentCounter` and the `TestClock`: the limit per (account, mode, sender ID, text),
 * the window, Idempotency-Key retries not counted twice, and an unavailable counter letting sends
 * through.
 */
import { expect, it } from "@effect/vitest"
import { Duration, Effect, Layer, Option, TestClock } from "effect"
import { ContentCounter, ContentCounterUnavailable } from "../src/ports/ContentCounter.js"
import { checkDuplicateContent } from "../src/send/DuplicateContent.js"

const settings = { duplicateLimit: 2, duplicateWindow: Duration.minutes(10) }
const live = { accountId: "a1", mode: "live" as const }

const check = (caller: Parameters<typeof checkDuplicateContent>[2], sender: string, body: string) =>
  Effect.flatMap(ContentCounter, (counter) => checkDuplicateContent(counter, settings, caller, sender, body))

const refused = <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.map(Effect.either(self), (e) => e._tag === "Left")

it.effect("over the limit: 429 with the time left; per text, per account, per mode; sender ID case-insensitive", () =>
  Effect.gen(function*() {
    expect(yield* refused(check(live, "TUMA", "Hello"))).toBe(false)
    expect(yield* refused(check(live, "tuma", "Hello"))).toBe(false)
    const third = yield* Effect.flip(check(live, " Tuma ", "Hello"))
    expect(third.error_code).toBe("DUPLICATE_CONTENT_RATE_LIMITED")
    expect(third.retry_after_seconds).toBe(600)
    expect(third.message).toContain("more than 2 times in 10 minutes")
    // another text, another account, the sandbox: counted apart
    expect(yield* refused(check(live, "TUMA", "Hello!"))).toBe(false)
    expect(yield* refused(check({ ...live, accountId: "a2" }, "TUMA", "Hello"))).toBe(false)
    expect(yield* refused(check({ ...live, mode: "test" }, "TUMA", "Hello"))).toBe(false)
    // the window ends: counting starts again
    yield* TestClock.adjust("4 minutes")
    expect((yield* Effect.flip(check(live, "TUMA", "Hello"))).retry_after_seconds).toBe(360)
    yield* TestClock.adjust("6 minutes")
    expect(yield* refused(check(live, "TUMA", "Hello"))).toBe(false)
  }).pipe(Effect.provide(ContentCounter.layerMemory)))

it.effect("a retry with the same Idempotency-Key is not counted again; a new key is", () =>
  Effect.gen(function*() {
    const keyed = { ...live, idempotencyKey: "k1" }
    for (let i = 0; i < 5; i++) expect(yield* refused(check(keyed, "TUMA", "Code 1234"))).toBe(false)
    expect(yield* refused(check({ ...live, idempotencyKey: "k2" }, "TUMA", "Code 1234"))).toBe(false)
    expect(yield* refused(check({ ...live, idempotencyKey: "k3" }, "TUMA", "Code 1234"))).toBe(true)
  }).pipe(Effect.provide(ContentCounter.layerMemory)))

it.effect("an unavailable counter lets the send through", () =>
  Effect.gen(function*() {
    for (let i = 0; i < 5; i++) expect(yield* refused(check(live, "TUMA", "Hello"))).toBe(false)
  }).pipe(Effect.provide(Layer.succeed(ContentCounter, {
    take: () => Effect.fail(new ContentCounterUnavailable({ cause: "down" }))
  }))))

it.effect("the memory counter: the refused take does not move the count", () =>
  Effect.gen(function*() {
    const counter = yield* ContentCounter
    const take = counter.take("k", Duration.seconds(10), 1)
    expect(Option.isNone(yield* take)).toBe(true)
    expect(Option.isSome(yield* take)).toBe(true)
    yield* TestClock.adjust("10 seconds")
    expect(Option.isNone(yield* take)).toBe(true)
  }).pipe(Effect.provide(ContentCounter.layerMemory)))

/**
 * A bind's figures for the live-binds list (docs/smpp.md "Live binds"): submits received in the last
 * minute, counted in one-second slots (60 of them, so a count costs no more than a slot per second).
 */

/** Counts events over a sliding minute. */
export class MinuteCounter {
  private readonly slots = new Array<number>(60).fill(0)
  private readonly seconds = new Array<number>(60).fill(-1)

  /** Counts one event at `at` (ms). */
  add(at: number): void {
    const second = Math.floor(at / 1000)
    const i = second % 60
    if (this.seconds[i] !== second) {
      this.seconds[i] = second
      this.slots[i] = 0
    }
    this.slots[i]! += 1
  }

  /** The events of the 60 seconds up to `at` (ms). */
  count(at: number): number {
    const now = Math.floor(at / 1000)
    let n = 0
    for (let i = 0; i < 60; i++) if (now - this.seconds[i]! < 60) n += this.slots[i]!
    return n
  }
}

/**
 * The portal's QR encoder (src/shared/qr.ts) read back as a reader would: the format bits (known
 * values of the standard's table), the mask undone, the codewords read in placement order, every
 * Reed–Solomon block checked by its syndromes (zero for a valid block), and the byte-mode data
 * decoded to the very text.
 */
import { describe, expect, it } from "vitest"
import {
  dataCodewords,
  dataModuleOrder,
  eccLayout,
  formatBits,
  functionGrid,
  gfMul,
  masked,
  qrMatrix,
  qrPath,
  rawDataModules
} from "../src/shared/qr.js"

/** Decodes a symbol made by `qrMatrix` (level M), failing on any inconsistency. */
const decode = (m: ReadonlyArray<ReadonlyArray<boolean>>): string => {
  const size = m.length
  const ver = (size - 17) / 4
  // format bits, first copy (around the top-left finder)
  const at = (x: number, y: number) => (m[y][x] ? 1 : 0)
  const read: Array<number> = []
  for (let i = 0; i <= 5; i++) read.push(at(8, i))
  read.push(at(8, 7), at(8, 8), at(7, 8))
  for (let i = 9; i < 15; i++) read.push(at(14 - i, 8))
  const format = read.reduce((acc, b, i) => acc | (b << i), 0)
  const mask = [0, 1, 2, 3, 4, 5, 6, 7].find((k) => formatBits(k) === format)
  if (mask === undefined) throw new Error(`format bits ${format.toString(2)} are not level M`)
  // second copy agrees
  const second: Array<number> = []
  for (let i = 0; i < 8; i++) second.push(at(size - 1 - i, 8))
  for (let i = 8; i < 15; i++) second.push(at(8, size - 15 + i))
  expect(second.reduce((acc, b, i) => acc | (b << i), 0)).toBe(format)
  expect(m[size - 8][8]).toBe(true)
  // codewords
  const order = dataModuleOrder(functionGrid(ver))
  const raw = Math.floor(rawDataModules(ver) / 8)
  const codewords: Array<number> = new Array<number>(raw).fill(0)
  order.slice(0, raw * 8).forEach(([x, y], i) => {
    const b = m[y][x] !== masked(mask, x, y) ? 1 : 0
    codewords[i >>> 3] |= b << (7 - (i & 7))
  })
  // de-interleave into blocks
  const { blocks: n, eccPerBlock } = eccLayout(ver)
  const numShort = n - (raw % n)
  const shortLen = Math.floor(raw / n)
  const blocks: Array<Array<number>> = Array.from({ length: n }, () => [])
  let k = 0
  for (let i = 0; i < shortLen + 1; i++) {
    for (let j = 0; j < n; j++) {
      if (i === shortLen - eccPerBlock && j < numShort) continue
      blocks[j].push(codewords[k++])
    }
  }
  // every block's syndromes S_0..S_{ecc-1} are zero
  const data: Array<number> = []
  for (const block of blocks) {
    let alphaI = 1
    for (let s = 0; s < eccPerBlock; s++) {
      let syn = 0
      for (const c of block) syn = gfMul(syn, alphaI) ^ c
      expect(syn).toBe(0)
      alphaI = gfMul(alphaI, 2)
    }
    data.push(...block.slice(0, block.length - eccPerBlock))
  }
  expect(data.length).toBe(dataCodewords(ver))
  // byte mode
  const bits = data.flatMap((b) => [7, 6, 5, 4, 3, 2, 1, 0].map((i) => (b >>> i) & 1))
  const take = (from: number, len: number) => bits.slice(from, from + len).reduce((a, b) => (a << 1) | b, 0)
  expect(take(0, 4)).toBe(0b0100)
  const countBits = ver <= 9 ? 8 : 16
  const count = take(4, countBits)
  const bytes = Uint8Array.from({ length: count }, (_, i) => take(4 + countBits + i * 8, 8))
  return new TextDecoder().decode(bytes)
}

describe("QR encoder", () => {
  it("format bits are the standard's (level M)", () => {
    expect(formatBits(0)).toBe(0b101010000010010)
    expect(formatBits(1)).toBe(0b101000100100101)
    expect(formatBits(7)).toBe(0b100101010100000)
  })

  it.each([
    "a",
    "HELLO WORLD",
    "otpauth://totp/Tuma:owner%40example.com?issuer=Tuma&secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&algorithm=SHA1&digits=6&period=30",
    "ü€ — Kiswahili: Habari za asubuhi! ".repeat(6)
  ])("round-trips %s", (text) => {
    const m = qrMatrix(text)
    expect(m.length).toBe(m[0].length)
    // finder pattern of the top-left corner
    const finder = m.slice(0, 7).map((row) => row.slice(0, 7).map((b) => (b ? "#" : ".")).join(""))
    expect(finder).toEqual(["#######", "#.....#", "#.###.#", "#.###.#", "#.###.#", "#.....#", "#######"])
    expect(decode(m)).toBe(text)
    expect(qrPath(m)).toMatch(/^M\d+ \d+h1v1h-1z/)
  })

  it("chooses the smallest version that holds the text", () => {
    expect(qrMatrix("x".repeat(14)).length).toBe(21) // version 1-M holds 14 bytes
    expect(qrMatrix("x".repeat(15)).length).toBe(25)
  })
})

/**
 * A small QR Code encoder (ISO/IEC 18004, after Project Nayuki's reference design): byte mode,
 * error correction level M, versions 1–40, the mask of the lowest penalty. Used to draw an
 * authenticator's `otpauth://` address as an SVG in the browser (no dependency, nothing sent to a
 * third party). `qrMatrix` answers the modules (true = dark), row by row.
 */

const ECC_PER_BLOCK_M = [
  -1,
  10,
  16,
  26,
  18,
  24,
  16,
  18,
  22,
  22,
  26,
  30,
  22,
  22,
  24,
  24,
  28,
  28,
  26,
  26,
  26,
  26,
  28,
  28,
  28,
  28,
  28,
  28,
  28,
  28,
  28,
  28,
  28,
  28,
  28,
  28,
  28,
  28,
  28,
  28,
  28
]
const BLOCKS_M = [
  -1,
  1,
  1,
  1,
  2,
  2,
  4,
  4,
  4,
  5,
  5,
  5,
  8,
  9,
  9,
  10,
  10,
  11,
  13,
  14,
  16,
  17,
  17,
  18,
  20,
  21,
  23,
  25,
  26,
  28,
  29,
  31,
  33,
  35,
  37,
  38,
  40,
  43,
  45,
  47,
  49
]
/** The format bits of level M. */
const FORMAT_M = 0

/** The modules a version holds for data and error correction (all but the function patterns). */
export const rawDataModules = (ver: number): number => {
  let result = (16 * ver + 128) * ver + 64
  if (ver >= 2) {
    const numAlign = Math.floor(ver / 7) + 2
    result -= (25 * numAlign - 10) * numAlign - 55
    if (ver >= 7) result -= 36
  }
  return result
}

/** The data codewords of a version at level M. */
export const dataCodewords = (ver: number): number =>
  Math.floor(rawDataModules(ver) / 8) - ECC_PER_BLOCK_M[ver] * BLOCKS_M[ver]

/** The error-correction codewords per block and the number of blocks of a version at level M. */
export const eccLayout = (ver: number) => ({ eccPerBlock: ECC_PER_BLOCK_M[ver], blocks: BLOCKS_M[ver] })

/** Multiplication in GF(2^8) modulo x^8 + x^4 + x^3 + x^2 + 1. */
export const gfMul = (x: number, y: number): number => {
  let z = 0
  for (let i = 7; i >= 0; i--) {
    z = (z << 1) ^ ((z >>> 7) * 0x11d)
    z ^= ((y >>> i) & 1) * x
  }
  return z & 0xff
}

const rsDivisor = (degree: number): Array<number> => {
  const result = new Array<number>(degree).fill(0)
  result[degree - 1] = 1
  let root = 1
  for (let i = 0; i < degree; i++) {
    for (let j = 0; j < result.length; j++) {
      result[j] = gfMul(result[j], root)
      if (j + 1 < result.length) result[j] ^= result[j + 1]
    }
    root = gfMul(root, 0x02)
  }
  return result
}

const rsRemainder = (data: ReadonlyArray<number>, divisor: ReadonlyArray<number>): Array<number> => {
  const result = new Array<number>(divisor.length).fill(0)
  for (const b of data) {
    const factor = b ^ (result.shift() ?? 0)
    result.push(0)
    divisor.forEach((coef, i) => {
      result[i] ^= gfMul(coef, factor)
    })
  }
  return result
}

/** The alignment pattern centres of a version. */
export const alignmentPositions = (ver: number): Array<number> => {
  if (ver === 1) return []
  const numAlign = Math.floor(ver / 7) + 2
  const step = Math.floor((ver * 8 + numAlign * 3 + 5) / (numAlign * 4 - 4)) * 2
  const result = [6]
  for (let pos = ver * 4 + 17 - 7; result.length < numAlign; pos -= step) result.splice(1, 0, pos)
  return result
}

/** The data codewords of `bytes` in byte mode for a version: mode, count, data, terminator, padding. */
const dataBits = (bytes: Uint8Array, ver: number): Array<number> => {
  const bits: Array<number> = []
  const put = (value: number, length: number) => {
    for (let i = length - 1; i >= 0; i--) bits.push((value >>> i) & 1)
  }
  put(0b0100, 4)
  put(bytes.length, ver <= 9 ? 8 : 16)
  bytes.forEach((b) => put(b, 8))
  const capacity = dataCodewords(ver) * 8
  put(0, Math.min(4, capacity - bits.length))
  put(0, (8 - (bits.length % 8)) % 8)
  for (let pad = 0xec; bits.length < capacity; pad ^= 0xec ^ 0x11) put(pad, 8)
  const codewords: Array<number> = []
  for (let i = 0; i < bits.length; i += 8) codewords.push(bits.slice(i, i + 8).reduce((a, b) => (a << 1) | b, 0))
  return codewords
}

/** The data codewords split in blocks, each with its error correction, interleaved. */
const withEcc = (data: ReadonlyArray<number>, ver: number): Array<number> => {
  const { blocks: numBlocks, eccPerBlock } = eccLayout(ver)
  const rawCodewords = Math.floor(rawDataModules(ver) / 8)
  const numShort = numBlocks - (rawCodewords % numBlocks)
  const shortLen = Math.floor(rawCodewords / numBlocks)
  const divisor = rsDivisor(eccPerBlock)
  const blocks: Array<Array<number>> = []
  for (let i = 0, k = 0; i < numBlocks; i++) {
    const dat = data.slice(k, k + shortLen - eccPerBlock + (i < numShort ? 0 : 1))
    k += dat.length
    const ecc = rsRemainder(dat, divisor)
    if (i < numShort) dat.push(0)
    blocks.push([...dat, ...ecc])
  }
  const result: Array<number> = []
  for (let i = 0; i < blocks[0].length; i++) {
    blocks.forEach((block, j) => {
      if (i !== shortLen - eccPerBlock || j >= numShort) result.push(block[i])
    })
  }
  return result
}

/** The 15 format bits of level M and a mask (BCH-coded, XORed with 0x5412). */
export const formatBits = (mask: number): number => {
  const data = (FORMAT_M << 3) | mask
  let rem = data
  for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * 0x537)
  return ((data << 10) | rem) ^ 0x5412
}

/** Whether the mask `mask` inverts the module at (x, y). */
export const masked = (mask: number, x: number, y: number): boolean => {
  switch (mask) {
    case 0:
      return (x + y) % 2 === 0
    case 1:
      return y % 2 === 0
    case 2:
      return x % 3 === 0
    case 3:
      return (x + y) % 3 === 0
    case 4:
      return (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0
    case 5:
      return ((x * y) % 2) + ((x * y) % 3) === 0
    case 6:
      return (((x * y) % 2) + ((x * y) % 3)) % 2 === 0
    default:
      return (((x + y) % 2) + ((x * y) % 3)) % 2 === 0
  }
}

/** A symbol under construction: its modules and which of them are function patterns. */
interface Grid {
  readonly size: number
  readonly dark: Array<Array<boolean>>
  readonly fixed: Array<Array<boolean>>
}

const bit = (value: number, i: number) => ((value >>> i) & 1) !== 0

const drawFormat = (g: Grid, mask: number) => {
  const set = (x: number, y: number, on: boolean) => {
    g.dark[y][x] = on
    g.fixed[y][x] = true
  }
  const bits = formatBits(mask)
  for (let i = 0; i <= 5; i++) set(8, i, bit(bits, i))
  set(8, 7, bit(bits, 6))
  set(8, 8, bit(bits, 7))
  set(7, 8, bit(bits, 8))
  for (let i = 9; i < 15; i++) set(14 - i, 8, bit(bits, i))
  for (let i = 0; i < 8; i++) set(g.size - 1 - i, 8, bit(bits, i))
  for (let i = 8; i < 15; i++) set(8, g.size - 15 + i, bit(bits, i))
  set(8, g.size - 8, true)
}

/** The function patterns of a version (finders, timing, alignment, format and version areas). */
export const functionGrid = (ver: number): Grid => {
  const size = ver * 4 + 17
  const g: Grid = {
    size,
    dark: Array.from({ length: size }, () => new Array<boolean>(size).fill(false)),
    fixed: Array.from({ length: size }, () => new Array<boolean>(size).fill(false))
  }
  const set = (x: number, y: number, on: boolean) => {
    g.dark[y][x] = on
    g.fixed[y][x] = true
  }
  for (let i = 0; i < size; i++) {
    set(6, i, i % 2 === 0)
    set(i, 6, i % 2 === 0)
  }
  for (const [cx, cy] of [[3, 3], [size - 4, 3], [3, size - 4]]) {
    for (let dy = -4; dy <= 4; dy++) {
      for (let dx = -4; dx <= 4; dx++) {
        const dist = Math.max(Math.abs(dx), Math.abs(dy))
        const x = cx + dx
        const y = cy + dy
        if (x >= 0 && x < size && y >= 0 && y < size) set(x, y, dist !== 2 && dist !== 4)
      }
    }
  }
  const align = alignmentPositions(ver)
  const last = align.length - 1
  align.forEach((ax, i) =>
    align.forEach((ay, j) => {
      if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) return
      for (let dy = -2; dy <= 2; dy++) {
        for (let dx = -2; dx <= 2; dx++) set(ax + dx, ay + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1)
      }
    })
  )
  drawFormat(g, 0)
  if (ver >= 7) {
    let rem = ver
    for (let i = 0; i < 12; i++) rem = (rem << 1) ^ ((rem >>> 11) * 0x1f25)
    const bits = (ver << 12) | rem
    for (let i = 0; i < 18; i++) {
      const a = size - 11 + (i % 3)
      const b = Math.floor(i / 3)
      set(a, b, bit(bits, i))
      set(b, a, bit(bits, i))
    }
  }
  return g
}

/** The (x, y) of every data module in placement order (the two-column zigzag from the bottom right). */
export const dataModuleOrder = (g: Pick<Grid, "size" | "fixed">): Array<readonly [number, number]> => {
  const order: Array<readonly [number, number]> = []
  for (let right = g.size - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5
    for (let vert = 0; vert < g.size; vert++) {
      for (let j = 0; j < 2; j++) {
        const x = right - j
        const upward = ((right + 1) & 2) === 0
        const y = upward ? g.size - 1 - vert : vert
        if (!g.fixed[y][x]) order.push([x, y])
      }
    }
  }
  return order
}

/** A simplified penalty (runs, 2×2 blocks, balance): any mask decodes; this one reads more easily. */
const penalty = (dark: ReadonlyArray<ReadonlyArray<boolean>>): number => {
  const size = dark.length
  let score = 0
  let darkCount = 0
  for (let a = 0; a < size; a++) {
    let runRow = 1
    let runCol = 1
    for (let b = 0; b < size; b++) {
      if (dark[a][b]) darkCount++
      if (b > 0) {
        runRow = dark[a][b] === dark[a][b - 1] ? runRow + 1 : 1
        runCol = dark[b][a] === dark[b - 1][a] ? runCol + 1 : 1
        if (runRow === 5) score += 3
        else if (runRow > 5) score++
        if (runCol === 5) score += 3
        else if (runCol > 5) score++
      }
      if (a > 0 && b > 0) {
        const c = dark[a][b]
        if (c === dark[a - 1][b] && c === dark[a][b - 1] && c === dark[a - 1][b - 1]) score += 3
      }
    }
  }
  const total = size * size
  return score + (Math.ceil(Math.abs(darkCount * 20 - total * 10) / total) - 1) * 10
}

/** The modules of the QR code of `text` (UTF-8, byte mode, level M), row by row; true is dark. */
export const qrMatrix = (text: string): ReadonlyArray<ReadonlyArray<boolean>> => {
  const bytes = new TextEncoder().encode(text)
  let ver = 1
  while (ver <= 40 && 4 + (ver <= 9 ? 8 : 16) + bytes.length * 8 > dataCodewords(ver) * 8) ver++
  if (ver > 40) throw new RangeError("The text is too long for a QR code.")
  const codewords = withEcc(dataBits(bytes, ver), ver)
  let best: { score: number; dark: Array<Array<boolean>> } | undefined
  for (let mask = 0; mask < 8; mask++) {
    const g = functionGrid(ver)
    dataModuleOrder(g).forEach(([x, y], i) => {
      const on = i < codewords.length * 8 && bit(codewords[i >>> 3], 7 - (i & 7))
      g.dark[y][x] = on !== masked(mask, x, y)
    })
    drawFormat(g, mask)
    const score = penalty(g.dark)
    if (best === undefined || score < best.score) best = { score, dark: g.dark }
  }
  return best!.dark
}

/** An SVG path of the dark modules (one unit per module, offset by a 4-module quiet zone). */
export const qrPath = (matrix: ReadonlyArray<ReadonlyArray<boolean>>): string =>
  matrix.flatMap((row, y) => row.flatMap((on, x) => (on ? [`M${x + 4} ${y + 4}h1v1h-1z`] : []))).join("")

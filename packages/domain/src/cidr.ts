/**
 * IP addresses and CIDR blocks (IPv4, IPv6, IPv4-mapped IPv6) for API-key allow-lists and
 * trusted proxies. A bare address is a /32 (or /128) block.
 */

/** A CIDR block: IP version, base address and prefix length. */
export interface Block {
  readonly v6: boolean
  readonly base: bigint
  readonly bits: number
}

const parseV4 = (s: string): bigint | undefined => {
  const parts = s.split(".")
  if (parts.length !== 4) return undefined
  let n = 0n
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return undefined
    const v = Number(p)
    if (v > 255) return undefined
    n = (n << 8n) | BigInt(v)
  }
  return n
}

const parseV6 = (s: string): bigint | undefined => {
  const zone = s.indexOf("%")
  if (zone >= 0) s = s.slice(0, zone)
  // embedded IPv4 at the end (::ffff:1.2.3.4) becomes two hex groups
  const lastColon = s.lastIndexOf(":")
  if (lastColon >= 0 && s.slice(lastColon + 1).includes(".")) {
    const v4 = parseV4(s.slice(lastColon + 1))
    if (v4 === undefined) return undefined
    s = `${s.slice(0, lastColon + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`
  }
  const halves = s.split("::")
  if (halves.length > 2) return undefined
  const head = halves[0] === "" ? [] : halves[0].split(":")
  const rest = halves.length === 2 ? (halves[1] === "" ? [] : halves[1].split(":")) : []
  if (halves.length === 2 && head.length + rest.length > 7) return undefined
  const groups = halves.length === 2
    ? [...head, ...Array<string>(8 - head.length - rest.length).fill("0"), ...rest]
    : head
  if (groups.length !== 8) return undefined
  let n = 0n
  for (const g of groups) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined
    n = (n << 16n) | BigInt(parseInt(g, 16))
  }
  return n
}

/** Parses an address; IPv4-mapped IPv6 (`::ffff:a.b.c.d`) becomes plain IPv4. */
export const parseAddress = (s: string): { readonly v6: boolean; readonly value: bigint } | undefined => {
  const v4 = parseV4(s)
  if (v4 !== undefined) return { v6: false, value: v4 }
  const v6 = parseV6(s)
  if (v6 === undefined) return undefined
  if (v6 >> 32n === 0xffffn) return { v6: false, value: v6 & 0xffffffffn }
  return { v6: true, value: v6 }
}

/** An IPv4 or IPv6 address or CIDR block, or undefined when the text is neither. */
export const parseBlock = (s: string): Block | undefined => {
  const slash = s.indexOf("/")
  const addr = parseAddress(slash >= 0 ? s.slice(0, slash) : s.trim())
  if (addr === undefined) return undefined
  const max = addr.v6 ? 128 : 32
  let bits = max
  if (slash >= 0) {
    const b = s.slice(slash + 1)
    if (!/^\d{1,3}$/.test(b)) return undefined
    bits = Number(b)
    // a mapped v4 block written in v6 form (::ffff:10.0.0.0/104) counts in v4 bits
    if (!addr.v6 && s.includes(":")) bits -= 96
    if (bits < 0 || bits > max) return undefined
  }
  const shift = BigInt(max - bits)
  return { v6: addr.v6, base: (addr.value >> shift) << shift, bits }
}

/** Whether the address is inside the block (same IP version only). */
export const contains = (block: Block, address: { readonly v6: boolean; readonly value: bigint }): boolean => {
  if (block.v6 !== address.v6) return false
  const shift = BigInt((block.v6 ? 128 : 32) - block.bits)
  return (address.value >> shift) << shift === block.base
}

/** A matcher over a list of blocks; invalid entries are ignored (they match nothing). */
export const matcher = (blocks: ReadonlyArray<string>) => {
  const parsed = blocks.map(parseBlock).filter((b): b is Block => b !== undefined)
  return (address: string): boolean => {
    const a = parseAddress(address)
    return a !== undefined && parsed.some((b) => contains(b, a))
  }
}

/**
 * The client address: the socket's, unless the socket is a trusted proxy, in which case the
 * right-most `X-Forwarded-For` entry that is not itself a trusted proxy.
 */
export const clientAddress = (
  socketAddress: string | undefined,
  forwardedFor: string | undefined,
  isTrustedProxy: (address: string) => boolean
): string | undefined => {
  if (socketAddress === undefined || forwardedFor === undefined || !isTrustedProxy(socketAddress)) {
    return socketAddress
  }
  const hops = forwardedFor.split(",").map((h) => h.trim()).filter((h) => h !== "")
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!isTrustedProxy(hops[i])) return hops[i]
  }
  return hops[0] ?? socketAddress
}

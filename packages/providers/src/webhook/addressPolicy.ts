/**
 * Outbound safety for webhook URLs: which IP addresses a webhook may reach. Loopback, private,
 * link-local, cloud metadata and other non-public ranges are refused unless the operator
 * allow-list (`TUMA_WEBHOOK_ALLOW`: IPs or CIDRs; a server setting, never a per-endpoint flag)
 * permits them. `refuseAddress` is the one check, used at both points:
 *
 * - at registration, `refuseWebhookUrl` (the `WebhookDestinationPolicy` adapter): a host that is an
 *   IP literal in any spelling — the URL parser turns `2130706433`, `0x7f000001`, `0177.1` into
 *   `127.0.0.1`; `[::ffff:127.0.0.1]` is unmapped here — is checked as such; a DNS name is resolved
 *   and refused if ANY of its addresses is refused. A name that does not resolve (yet) is accepted:
 *   the delivery check decides when it does.
 * - at every delivery attempt, on the address actually connected to (HttpWebhookSender's
 *   `lookup`), so DNS rebinding after registration cannot slip past it.
 */
import { WebhookDestinationPolicy } from "@tuma/core/ports/Notifiers"
import { Effect, Layer } from "effect"
import * as dns from "node:dns"
import { BlockList, isIP } from "node:net"

/** Non-public ranges, with the reason reported in the attempt's error. */
const FORBIDDEN_V4: ReadonlyArray<readonly [string, number, string]> = [
  ["0.0.0.0", 8, "unspecified"],
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "shared address space"], // includes 100.100.100.200 (Alibaba metadata)
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link-local/metadata"], // includes 169.254.169.254
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "IETF protocol assignments"],
  ["192.0.2.0", 24, "documentation"],
  ["192.168.0.0", 16, "private"],
  ["198.18.0.0", 15, "benchmarking"],
  ["198.51.100.0", 24, "documentation"],
  ["203.0.113.0", 24, "documentation"],
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved"]
]
const FORBIDDEN_V6: ReadonlyArray<readonly [string, number, string]> = [
  ["::", 128, "unspecified"],
  ["::1", 128, "loopback"],
  ["64:ff9b::", 96, "NAT64"],
  ["100::", 64, "discard"],
  ["2001:db8::", 32, "documentation"],
  ["fc00::", 7, "private"], // unique local, includes fd00:ec2::254 (AWS metadata)
  ["fe80::", 10, "link-local"],
  ["fec0::", 10, "site-local"],
  ["ff00::", 8, "multicast"]
]

const lists = (() => {
  const byReason = new Map<string, BlockList>()
  const add = (addr: string, prefix: number, reason: string, type: "ipv4" | "ipv6") => {
    let list = byReason.get(reason)
    if (list === undefined) byReason.set(reason, list = new BlockList())
    list.addSubnet(addr, prefix, type)
  }
  for (const [a, p, r] of FORBIDDEN_V4) add(a, p, r, "ipv4")
  for (const [a, p, r] of FORBIDDEN_V6) add(a, p, r, "ipv6")
  return [...byReason.entries()]
})()

/** `::ffff:10.0.0.1` and `::ffff:a00:1` are IPv4 addresses in disguise. */
const unmapV4 = (address: string): string => {
  const lower = address.toLowerCase()
  const dotted = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower)
  if (dotted) return dotted[1]
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower)
  if (hex) {
    const hi = parseInt(hex[1], 16)
    const lo = parseInt(hex[2], 16)
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`
  }
  return address
}

/** Why an address is non-public, or null when it is public. Non-IP input is reported as invalid. */
export const nonPublicReason = (address: string): string | null => {
  const a = unmapV4(address.replace(/^\[|\]$/g, "").replace(/%.*$/, ""))
  const family = isIP(a)
  if (family === 0) return "not an IP address"
  const type = family === 4 ? "ipv4" : "ipv6"
  for (const [reason, list] of lists) if (list.check(a, type)) return reason
  return null
}

/** A compiled operator allow-list of IPs and CIDRs (e.g. `127.0.0.1`, `10.0.0.0/8`, `::1`). */
export interface AddressAllowList {
  readonly permits: (address: string) => boolean
  readonly entries: ReadonlyArray<string>
}

/** An allow-list of addresses and CIDR ranges that webhooks may reach despite the outbound address policy. */
export const makeAllowList = (entries: ReadonlyArray<string>): AddressAllowList => {
  const list = new BlockList()
  const clean: Array<string> = []
  for (const raw of entries) {
    const entry = raw.trim()
    if (entry === "") continue
    const [addr, prefixText] = entry.split("/")
    const family = isIP(addr)
    if (family === 0) throw new Error(`webhook allow-list entry is not an IP or CIDR: ${entry}`)
    const type = family === 4 ? "ipv4" : "ipv6"
    const prefix = prefixText === undefined ? (family === 4 ? 32 : 128) : Number(prefixText)
    if (!Number.isInteger(prefix) || prefix < 0 || prefix > (family === 4 ? 32 : 128)) {
      throw new Error(`webhook allow-list entry has an invalid prefix: ${entry}`)
    }
    list.addSubnet(addr, prefix, type)
    clean.push(entry)
  }
  return {
    entries: clean,
    permits: (address) => {
      const a = unmapV4(address.replace(/^\[|\]$/g, "").replace(/%.*$/, ""))
      const family = isIP(a)
      return family !== 0 && list.check(a, family === 4 ? "ipv4" : "ipv6")
    }
  }
}

/** Parses `TUMA_WEBHOOK_ALLOW` style text: entries separated by commas or whitespace. */
export const parseAllowList = (text: string | undefined): AddressAllowList =>
  makeAllowList((text ?? "").split(/[\s,]+/))

/** Null when the webhook may connect to `address`, otherwise the refusal text. */
export const refuseAddress = (address: string, allow: AddressAllowList): string | null => {
  const reason = nonPublicReason(address)
  if (reason === null) return null
  if (reason === "not an IP address") return `destination ${address} is not an IP address`
  if (allow.permits(address)) return null
  return `destination ${address} is ${reason} and not on the webhook allow-list`
}

/** A DNS look-up: every address of a host name (injectable in tests). */
export type ResolveAll = (hostname: string) => Promise<ReadonlyArray<string>>

/** Every address of `hostname` (A and AAAA), or none when it does not resolve within `timeoutMs`. */
export const resolveAll = (timeoutMs = 2_000): ResolveAll => (hostname) =>
  new Promise((resolve) => {
    const timer = setTimeout(() => resolve([]), timeoutMs)
    dns.lookup(hostname, { all: true, family: 0 }, (err, addresses) => {
      clearTimeout(timer)
      resolve(err ? [] : addresses.map((a) => a.address))
    })
  })

/**
 * Registration check of a webhook URL: null when it may be registered, otherwise why not. Only the
 * host is judged here (scheme and form are `webhookUrlProblem`'s, @tuma/domain).
 */
export const refuseWebhookUrl = async (
  url: string,
  allow: AddressAllowList,
  resolve: ResolveAll = resolveAll()
): Promise<string | null> => {
  let host: string
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, "")
  } catch {
    return `${url} is not a URL`
  }
  if (isIP(host) !== 0) return refuseAddress(host, allow)
  if (host === "" || host.endsWith(".localhost") || host === "localhost") {
    // `localhost` names loopback by definition (RFC 6761), whatever the resolver says
    if (!allow.permits("127.0.0.1") && !allow.permits("::1")) return `destination ${host} is loopback`
  }
  for (const address of await resolve(host)) {
    const refused = refuseAddress(address, allow)
    if (refused !== null) return `${host} resolves to ${address}: ${refused}`
  }
  return null
}

/** `WebhookDestinationPolicy` over `refuseWebhookUrl` with the given allow-list. */
export const layerWebhookDestinationPolicy = (
  allow: AddressAllowList | ReadonlyArray<string> | string | undefined,
  resolve?: ResolveAll
): Layer.Layer<WebhookDestinationPolicy> => {
  const list = allow === undefined
    ? makeAllowList([])
    : typeof allow === "string"
    ? parseAllowList(allow)
    : "permits" in allow
    ? allow
    : makeAllowList(allow)
  return Layer.succeed(
    WebhookDestinationPolicy,
    WebhookDestinationPolicy.of({ refuse: (url) => Effect.promise(() => refuseWebhookUrl(url, list, resolve)) })
  )
}

/** The policy with the allow-list of `TUMA_WEBHOOK_ALLOW` (the same setting the HTTP sender reads). */
export const layerWebhookDestinationPolicyFromEnv = (
  env: Record<string, string | undefined> = process.env
): Layer.Layer<WebhookDestinationPolicy> =>
  Layer.suspend(() => layerWebhookDestinationPolicy(parseAllowList(env.TUMA_WEBHOOK_ALLOW)))

/**
 * The webhook HTTP sender: node:http/https with keep-alive agents, no redirects followed, a hard
 * per-attempt deadline, and the outbound address policy checked on the address actually connected
 * to (a custom `lookup`, so a hostname that re-resolves to 127.0.0.1 later is still refused).
 *
 * Adapter of `WebhookSender` (@tuma/core/ports/Notifiers).
 */
import type { WebhookAttemptResult, WebhookRequest } from "@tuma/core/ports/Notifiers"
import { WebhookSender } from "@tuma/core/ports/Notifiers"
import { DEFAULT_SIGNATURE_HEADER, DELIVERY_HEADER, EVENT_HEADER, signWebhook } from "@tuma/domain"
import { Effect, Layer, Predicate } from "effect"
import * as dns from "node:dns"
import * as http from "node:http"
import * as https from "node:https"
import { isIP } from "node:net"
import type { AddressAllowList } from "./addressPolicy.js"
import { makeAllowList, parseAllowList, refuseAddress } from "./addressPolicy.js"
import { answerOf, failure, parseTarget } from "./attempt.js"

/** Options of the HTTP webhook sender. */
export interface HttpWebhookSenderOptions {
  /** Signature header name (decisions.md §27, `webhooks.signatureHeader`). Default `X-Service-Signature`. */
  readonly signatureHeader?: string | undefined
  /** Operator allow-list of non-public IPs/CIDRs webhooks may reach (e.g. `["127.0.0.1"]` in tests). */
  readonly allow?: AddressAllowList | ReadonlyArray<string> | string | undefined
  /** Concurrent sockets per destination origin. Default 64. */
  readonly maxSocketsPerOrigin?: number | undefined
  readonly userAgent?: string | undefined
}

class AddressRefused extends Error {
  readonly code = "WEBHOOK_ADDRESS_REFUSED"
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | Array<dns.LookupAddress>,
  family?: number
) => void

const makeLookup = (allow: AddressAllowList) =>
(
  hostname: string,
  options: dns.LookupOptions,
  callback: LookupCallback
): void => {
  dns.lookup(hostname, { all: true, family: options.family ?? 0, hints: options.hints ?? 0 }, (err, addresses) => {
    if (err) return callback(err, "")
    const permitted = addresses.filter((a) => refuseAddress(a.address, allow) === null)
    if (permitted.length === 0) {
      const first = addresses[0]
      const why = first === undefined
        ? `${hostname} did not resolve`
        : refuseAddress(first.address, allow) ?? "refused"
      return callback(new AddressRefused(`${hostname}: ${why}`), "")
    }
    if (options.all) callback(null, permitted)
    else callback(null, permitted[0].address, permitted[0].family)
  })
}

const describeError = (e: unknown, timeoutMs: number): string => {
  if (e instanceof AddressRefused) return e.message
  const code = Predicate.hasProperty(e, "code") ? e.code : undefined
  const message = Predicate.hasProperty(e, "message") ? e.message : undefined
  if (code === "WEBHOOK_TIMEOUT") return `timeout after ${timeoutMs} ms`
  if (code) return `connection error: ${String(code)}${message ? ` (${String(message)})` : ""}`
  return `connection error: ${String(message ?? e)}`
}

/**
 * Decisions for IP-literal hosts (which never go through `lookup`), cached: the check costs ~50 µs and
 * endpoints are few.
 */
const cachedLiteralCheck = (allow: AddressAllowList) => {
  const decisions = new Map<string, string | null>()
  return (host: string): string | null => {
    let decision = decisions.get(host)
    if (decision === undefined) {
      decision = refuseAddress(host, allow)
      if (decisions.size >= 10_000) decisions.clear()
      decisions.set(host, decision)
    }
    return decision
  }
}

/** Builds the sender; `close` destroys the pooled sockets. */
export const makeHttpWebhookSenderUnsafe = (options: HttpWebhookSenderOptions = {}) => {
  const signatureHeader = options.signatureHeader ?? DEFAULT_SIGNATURE_HEADER
  const allow = options.allow === undefined
    ? makeAllowList([])
    : typeof options.allow === "string"
    ? parseAllowList(options.allow)
    : "permits" in options.allow
    ? options.allow
    : makeAllowList(options.allow)
  const maxSockets = options.maxSocketsPerOrigin ?? 64
  const userAgent = options.userAgent ?? "Tuma-Webhooks/1.0"
  const agentOptions = {
    keepAlive: true,
    keepAliveMsecs: 1_000,
    maxSockets,
    maxFreeSockets: maxSockets,
    scheduling: "lifo" as const
  }
  const pool = {
    http: new http.Agent(agentOptions),
    https: new https.Agent(agentOptions),
    lookup: makeLookup(allow)
  }

  const refuseLiteral = cachedLiteralCheck(allow)

  const attempt = (request: WebhookRequest, resume: (r: WebhookAttemptResult) => void) => {
    // The deadline and the latency run from the moment the request gets a socket (a fresh
    // connection's connect time counts; waiting for a free pooled socket does not).
    let started = performance.now()
    const elapsed = () => Math.round((performance.now() - started) * 100) / 100
    const url = parseTarget(request.url)
    if (typeof url === "string") return { cancel: () => {}, immediate: failure(url, 0) }
    const host = url.hostname.replace(/^\[|\]$/g, "")
    // An IP literal never goes through `lookup`: check it here.
    if (isIP(host) !== 0) {
      const refused = refuseLiteral(host)
      if (refused !== null) return { cancel: () => {}, immediate: failure(refused, 0) }
    }
    const isHttps = url.protocol === "https:"
    const body = Buffer.from(request.body, "utf8")
    const headers: Record<string, string | number> = {
      "content-type": "application/json",
      "content-length": body.length,
      "user-agent": userAgent,
      [signatureHeader]: signWebhook(body, request.secret),
      [EVENT_HEADER]: request.event,
      [DELIVERY_HEADER]: request.deliveryId
    }
    let done = false
    let current: http.ClientRequest | undefined
    const finish = (r: WebhookAttemptResult) => {
      if (done) return
      done = true
      resume(r)
    }
    const expire = (message: string) => () => {
      const e: NodeJS.ErrnoException = new Error("timeout")
      e.code = "WEBHOOK_TIMEOUT"
      current?.destroy(e)
      finish(failure(message, elapsed()))
    }
    // Until a socket is assigned: a generous guard against a pool that never frees up.
    let timer: NodeJS.Timeout = setTimeout(
      expire(`no connection slot within ${request.timeoutMs * 6} ms`),
      request.timeoutMs * 6
    )
    let timing = false
    const startDeadline = () => {
      if (timing) return
      timing = true
      started = performance.now()
      clearTimeout(timer)
      timer = setTimeout(expire(`timeout after ${request.timeoutMs} ms`), request.timeoutMs)
    }

    const send = (retryOnStaleSocket: boolean) => {
      const req = (isHttps ? https : http).request({
        protocol: url.protocol,
        hostname: host,
        port: url.port === "" ? (isHttps ? 443 : 80) : Number(url.port),
        path: `${url.pathname}${url.search}`,
        method: "POST",
        agent: isHttps ? pool.https : pool.http,
        lookup: pool.lookup,
        headers,
        ...(url.username !== ""
          ? { auth: `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` }
          : {})
      })
      current = req
      req.once("socket", startDeadline)
      req.on("response", (res) => {
        const latencyMs = elapsed()
        // Drain (and discard) the body so the socket returns to the pool; the deadline still guards it.
        res.on("end", () => clearTimeout(timer))
        res.on("error", () => clearTimeout(timer))
        res.resume()
        finish(answerOf(res.statusCode ?? 0, res.headers.location, latencyMs))
      })
      req.on("error", (e: NodeJS.ErrnoException) => {
        // A keep-alive socket the server closed while idle: resend once on a fresh socket.
        if (retryOnStaleSocket && req.reusedSocket && (e.code === "ECONNRESET" || e.code === "EPIPE") && !done) {
          return send(false)
        }
        clearTimeout(timer)
        finish(failure(describeError(e, request.timeoutMs), elapsed()))
      })
      req.end(body)
    }
    send(true)
    return {
      cancel: () => {
        done = true
        clearTimeout(timer)
        current?.destroy()
      },
      immediate: undefined
    }
  }

  const send = (request: WebhookRequest): Effect.Effect<WebhookAttemptResult> =>
    Effect.async<WebhookAttemptResult>((resume) => {
      const { cancel, immediate } = attempt(request, (r) => resume(Effect.succeed(r)))
      if (immediate !== undefined) {
        resume(Effect.succeed(immediate))
        return
      }
      return Effect.sync(cancel)
    })

  const close = () => {
    pool.http.destroy()
    pool.https.destroy()
  }

  return { send, close, signatureHeader, allow } as const
}

/** Scoped constructor: the pooled sockets are destroyed when the scope closes. */
export const makeHttpWebhookSender = (options: HttpWebhookSenderOptions = {}) =>
  Effect.acquireRelease(Effect.sync(() => makeHttpWebhookSenderUnsafe(options)), (s) => Effect.sync(s.close))

/** `WebhookSender` over HTTP. */
export const layerHttpWebhookSender = (options: HttpWebhookSenderOptions = {}): Layer.Layer<WebhookSender> =>
  Layer.scoped(WebhookSender, Effect.map(makeHttpWebhookSender(options), (s) => WebhookSender.of({ send: s.send })))

/**
 * Options from the environment: `TUMA_WEBHOOK_SIGNATURE_HEADER` (default `X-Service-Signature`) and
 * `TUMA_WEBHOOK_ALLOW` (comma-separated IPs/CIDRs, default empty).
 */
export const webhookSenderOptionsFromEnv = (
  env: Record<string, string | undefined> = process.env
): HttpWebhookSenderOptions => ({
  signatureHeader: env.TUMA_WEBHOOK_SIGNATURE_HEADER || undefined,
  allow: parseAllowList(env.TUMA_WEBHOOK_ALLOW)
})

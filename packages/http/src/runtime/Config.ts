/**
 * Server options (flags and environment are read by the `tuma` command, tests pass them directly).
 */
import { Context, Redacted } from "effect"

/** Settings of the HTTP server: address, admin token, body size limits, auth, rate limits, access log. */
export interface ServerOptions {
  /** 0 picks a free port. */
  readonly port: number
  readonly host: string
  /** Bearer token of the admin API; when unset the admin API refuses every request. */
  readonly adminToken: Redacted.Redacted<string> | undefined
  /** Body limit of every JSON endpoint (413 above it). */
  readonly maxBodyBytes: number
  /**
   * Body limit of sender-ID requests (documents inline or as parts): a declared Content-Length
   * above it is refused (413) before the body is read, a chunked body is cut off at it.
   */
  readonly maxUploadBytes: number
  /** Sender-ID requests one API key may have in flight at once (per process); more answer 429. */
  readonly maxConcurrentUploadsPerKey: number
  readonly auth: {
    /** decisions §1: 401 (default) or 403 for a key without the endpoint's scope. */
    readonly missingScopeStatus: 401 | 403
    /** How long a key lookup is reused (0 disables); revocation reaches other processes within it. */
    readonly cacheTtlMillis: number
    /** CIDRs of reverse proxies whose `X-Forwarded-For` is believed. */
    readonly trustedProxies: ReadonlyArray<string>
  }
  readonly rateLimit: {
    /** decisions §7: requests per key per window (default 600 per minute). */
    readonly limit: number
    readonly windowMillis: number
    /** decisions §7: the same (sender_id, body) on the single endpoint per account (default 30 per 10 min). */
    readonly duplicateLimit: number
    readonly duplicateWindowMillis: number
  }
  /** Log each request's method, path, status and duration. */
  readonly accessLog: boolean
  /**
   * Answer single sends beside the router (`FastSend.ts`; issue 12). Off: every request goes through
   * the platform's router (`TUMA_FAST_SEND=0`, for A/B measurements and comparisons).
   */
  readonly fastSend: boolean
}

/** The defaults of `ServerOptions` (docs/operations.md lists them). */
export const defaultServerOptions: ServerOptions = {
  port: 3000,
  host: "127.0.0.1",
  adminToken: undefined,
  maxBodyBytes: 1024 * 1024,
  maxUploadBytes: 16 * 1024 * 1024,
  maxConcurrentUploadsPerKey: 2,
  auth: { missingScopeStatus: 401, cacheTtlMillis: 2_000, trustedProxies: [] },
  rateLimit: { limit: 600, windowMillis: 60_000, duplicateLimit: 30, duplicateWindowMillis: 600_000 },
  accessLog: false,
  fastSend: true
}

/** The server's settings as a service, read by the middlewares and handlers. */
export class ServerConfig extends Context.Tag("@tuma/http/ServerConfig")<ServerConfig, ServerOptions>() {}

/** Deep-ish merge of partial options over the defaults. */
export const makeServerOptions = (overrides: {
  readonly port?: number | undefined
  readonly host?: string | undefined
  readonly adminToken?: string | Redacted.Redacted<string> | undefined
  readonly maxBodyBytes?: number | undefined
  readonly maxUploadBytes?: number | undefined
  readonly maxConcurrentUploadsPerKey?: number | undefined
  readonly auth?: { readonly [K in keyof ServerOptions["auth"]]?: ServerOptions["auth"][K] | undefined } | undefined
  readonly rateLimit?:
    | { readonly [K in keyof ServerOptions["rateLimit"]]?: ServerOptions["rateLimit"][K] | undefined }
    | undefined
  readonly accessLog?: boolean | undefined
  readonly fastSend?: boolean | undefined
} = {}): ServerOptions => ({
  port: overrides.port ?? defaultServerOptions.port,
  host: overrides.host ?? defaultServerOptions.host,
  adminToken: typeof overrides.adminToken === "string"
    ? (overrides.adminToken === "" ? undefined : Redacted.make(overrides.adminToken))
    : overrides.adminToken,
  maxBodyBytes: overrides.maxBodyBytes ?? defaultServerOptions.maxBodyBytes,
  maxUploadBytes: overrides.maxUploadBytes ?? defaultServerOptions.maxUploadBytes,
  maxConcurrentUploadsPerKey: overrides.maxConcurrentUploadsPerKey ?? defaultServerOptions.maxConcurrentUploadsPerKey,
  auth: withDefaults(defaultServerOptions.auth, overrides.auth),
  rateLimit: withDefaults(defaultServerOptions.rateLimit, overrides.rateLimit),
  accessLog: overrides.accessLog ?? defaultServerOptions.accessLog,
  fastSend: overrides.fastSend ?? defaultServerOptions.fastSend
})

/** `defaults` with every field `overrides` sets (a field left `undefined` keeps its default). */
const withDefaults = <A extends object>(
  defaults: A,
  overrides: { readonly [K in keyof A]?: A[K] | undefined } | undefined
): A => {
  const out = { ...defaults }
  if (overrides === undefined) return out
  for (const key in overrides) {
    const v = overrides[key]
    if (v !== undefined) out[key] = v
  }
  return out
}

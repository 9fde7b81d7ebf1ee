/**
 * The customer portal's static assets (`packages/portal`, a Vite build) under `/portal`.
 *
 * - `/portal/assets/*` are the hashed bundles: `Cache-Control: public, max-age=31536000, immutable`;
 *   a missing one is a 404 (never the page, so a stale tab fails loudly instead of parsing HTML).
 * - any other `/portal…` path (not `/portal/api/…`, which is the contract's) answers `index.html`
 *   with `no-cache`, so the single-page app routes client-side (SPA fallback).
 * - every answer carries a strict Content-Security-Policy (scripts and connections to this origin
 *   only, no inline script), `nosniff`, `frame-ancestors 'none'` and `Referrer-Policy: same-origin`.
 *
 * Where the assets come from: `TUMA_PORTAL_DIR` (a built `dist` directory), else
 * `packages/portal/dist` next to this package. Nothing built is committed: when that directory
 * is missing or older than the portal's sources (a fresh clone, or a checkout after a change), the
 * first `/portal` request of the process builds it with the portal's own Vite (`vite build`, about
 * 10 s; concurrent processes wait on one lock directory) and then serves it. A deployment without
 * the portal's dev dependencies must build it beforehand (`pnpm --filter @tuma/portal build`);
 * `TUMA_PORTAL_DIR` set means "serve exactly this, never build".
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerError from "@effect/platform/HttpServerError"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Effect } from "effect"
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import { createRequire } from "node:module"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import * as zlib from "node:zlib"

/** The portal package's directory (sources, vite config, dist). */
export const portalPackageDir = fileURLToPath(new URL("../../../portal/", import.meta.url))

const securityHeaders = {
  "content-security-policy": "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
    "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; " +
    "frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "same-origin"
} as const

const contentTypes: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
  ".map": "application/json"
}

/** Newest modification time (ms) of the files that make the build. */
const newestSource = (dir: string): number => {
  let newest = 0
  const visit = (p: string) => {
    const st = fs.statSync(p, { throwIfNoEntry: false })
    if (st === undefined) return
    if (st.isDirectory()) {
      for (const name of fs.readdirSync(p)) visit(path.join(p, name))
    } else if (st.mtimeMs > newest) newest = st.mtimeMs
  }
  for (const p of ["src", "index.html", "console.html", "vite.config.ts", "package.json", "public"]) {
    visit(path.join(dir, p))
  }
  return newest
}

/** True when `dist/index.html` is missing or older than a source file. */
export const isStale = (dir: string = portalPackageDir): boolean => {
  const built = fs.statSync(path.join(dir, "dist", "index.html"), { throwIfNoEntry: false })
  return built === undefined || built.mtimeMs < newestSource(dir)
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const runViteBuild = (dir: string) =>
  new Promise<void>((resolve, reject) => {
    let vite: string
    try {
      const pkg = createRequire(path.join(dir, "package.json")).resolve("vite/package.json")
      vite = path.join(path.dirname(pkg), "bin", "vite.js")
    } catch {
      reject(new Error("the portal is not built and vite is not installed: run `pnpm --filter @tuma/portal build`"))
      return
    }
    const child = spawn(process.execPath, [vite, "build", "--logLevel", "warn"], { cwd: dir, stdio: "inherit" })
    child.on("error", reject)
    child.on("exit", (code) => code === 0 ? resolve() : reject(new Error(`vite build exited with ${code}`)))
  })

/**
 * Build the portal when stale. One process builds at a time (an exclusive lock directory);
 * the others wait for it and re-check. A lock older than 3 minutes is taken over.
 */
export const ensureBuilt = async (dir: string = portalPackageDir): Promise<void> => {
  const lock = path.join(dir, ".build-lock")
  for (;;) {
    if (!isStale(dir)) return
    try {
      fs.mkdirSync(lock)
    } catch {
      const st = fs.statSync(lock, { throwIfNoEntry: false })
      if (st !== undefined && Date.now() - st.mtimeMs > 180_000) fs.rmSync(lock, { recursive: true, force: true })
      await sleep(250)
      continue
    }
    try {
      if (!isStale(dir)) return
      console.log("portal: building assets (vite build)…")
      await runViteBuild(dir)
      return
    } finally {
      fs.rmSync(lock, { recursive: true, force: true })
    }
  }
}

interface Asset {
  readonly body: Uint8Array
  readonly contentType: string
  /** The gzip form, made on first use (text types only). */
  gzip?: Uint8Array | undefined
}

const compressible = (contentType: string) =>
  contentType.startsWith("text/") || contentType.startsWith("application/json") || contentType.startsWith("image/svg")

/** The answer for one asset: gzip when the client takes it (the bundle is ~2.2 MB, ~0.6 MB gzipped). */
const assetResponse = (
  request: HttpServerRequest.HttpServerRequest,
  asset: Asset,
  headers: Record<string, string>
) => {
  const accepts = /\bgzip\b/.test(request.headers["accept-encoding"] ?? "")
  if (accepts && compressible(asset.contentType) && asset.body.byteLength > 1024) {
    asset.gzip ??= zlib.gzipSync(asset.body)
    return HttpServerResponse.uint8Array(asset.gzip, {
      contentType: asset.contentType,
      headers: { ...headers, "content-encoding": "gzip", vary: "accept-encoding" }
    })
  }
  return HttpServerResponse.uint8Array(asset.body, {
    contentType: asset.contentType,
    headers: { ...headers, vary: "accept-encoding" }
  })
}

/** Reads the built files, once per process (after the build check). */
const makeStore = (distDir: string, build: (() => Promise<void>) | undefined) => {
  let ready: Promise<void> | undefined
  const cache = new Map<string, Asset | null>()
  const prepare = () => (ready ??= build === undefined ? Promise.resolve() : build())
  const read = (rel: string): Asset | null => {
    const hit = cache.get(rel)
    if (hit !== undefined) return hit
    const file = path.resolve(distDir, rel)
    let asset: Asset | null = null
    if (file.startsWith(distDir + path.sep)) {
      try {
        asset = {
          body: fs.readFileSync(file),
          contentType: contentTypes[path.extname(file)] ?? "application/octet-stream"
        }
      } catch {
        asset = null
      }
    }
    if (cache.size < 1000) cache.set(rel, asset)
    return asset
  }
  return { prepare, read }
}

const unavailable = (message: string) =>
  HttpServerResponse.text(message, { status: 503, headers: { ...securityHeaders, "cache-control": "no-store" } })

/** The `/portal` routes on the API's router. */
export const layer = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const fixed = process.env.TUMA_PORTAL_DIR
    const distDir = path.resolve(fixed !== undefined && fixed !== "" ? fixed : path.join(portalPackageDir, "dist"))
    const store = makeStore(
      distDir,
      fixed !== undefined && fixed !== "" ? undefined : () => ensureBuilt(portalPackageDir)
    )
    const handler = Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const raw = request.url.split("?", 1)[0]
      let pathname = raw
      try {
        pathname = decodeURIComponent(raw)
      } catch {
        // a malformed escape: served as the page like any unknown path
      }
      if (
        pathname.startsWith("/portal/api/") || pathname === "/portal/api" ||
        pathname.startsWith("/console/api/") || pathname === "/console/api"
      ) {
        return yield* Effect.fail(new HttpServerError.RouteNotFound({ request }))
      }
      const built = yield* Effect.either(Effect.tryPromise(() => store.prepare()))
      if (built._tag === "Left") {
        return unavailable(`The portal could not be built: ${String(built.left.cause)}`)
      }
      // the operator console (issue 15) is a second page of the same build: every /console path
      if (pathname === "/console" || pathname.startsWith("/console/")) {
        const page = store.read("console.html")
        if (page === null) return unavailable("The console is not built: run `pnpm --filter @tuma/portal build`.")
        return assetResponse(request, page, { ...securityHeaders, "cache-control": "no-cache" })
      }
      const rel = pathname.replace(/^\/portal\/?/, "")
      if (rel.startsWith("assets/")) {
        const asset = store.read(rel)
        if (asset === null) {
          return HttpServerResponse.text("Not found", { status: 404, headers: securityHeaders })
        }
        return assetResponse(request, asset, {
          ...securityHeaders,
          "cache-control": "public, max-age=31536000, immutable"
        })
      }
      const file = rel === "" ? null : store.read(rel)
      const asset = file ?? store.read("index.html")
      if (asset === null) return unavailable("The portal is not built: run `pnpm --filter @tuma/portal build`.")
      return assetResponse(request, asset, { ...securityHeaders, "cache-control": "no-cache" })
    })
    yield* router.get("/portal", handler)
    yield* router.get("/portal/*", handler)
    yield* router.get("/console", handler)
    yield* router.get("/console/*", handler)
  })
)

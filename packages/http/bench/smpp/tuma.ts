/**
 * The SMPP benchmarks' Tuma: `tuma serve` as a process (tsx, its own process group) on a scratch
 * PostgreSQL database (PG_URL, default the local trust one), HTTP and SMPP on free loopback ports, an
 * account seeded through the admin API (TZ route, credits, sender BENCH, a simulated carrier) and SMPP
 * credentials for it.
 */
import { execFileSync, spawn } from "node:child_process"
import type { ChildProcess } from "node:child_process"
import { createServer } from "node:net"

const root = new URL("../../../../", import.meta.url).pathname
/** The PostgreSQL server the scratch databases are made on. */
export const PG = process.env.PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres"
const ADMIN = "bench-admin"

/** A free loopback port. */
export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer()
    s.listen(0, "127.0.0.1", () => {
      const a = s.address()
      const port = typeof a === "object" && a !== null ? a.port : 0
      s.close(() => resolve(port))
    })
  })

/** A scratch database named after `prefix`: its URL and its drop. */
export const scratchDatabase = (prefix = "tuma_smpp_bench") => {
  const name = `${prefix}_${process.pid}_${Date.now()}`
  execFileSync("psql", [PG, "-qc", `CREATE DATABASE ${name}`])
  return {
    url: `${PG.slice(0, PG.lastIndexOf("/"))}/${name}`,
    drop: () => execFileSync("psql", [PG, "-qc", `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`])
  }
}

/** A running `tuma serve`: its ports, output, and how to stop it (SIGTERM) or kill it (SIGKILL). */
export interface TumaProcess {
  readonly child: ChildProcess
  readonly base: string
  readonly smppPort: number
  readonly out: () => string
  readonly stop: (signal?: NodeJS.Signals) => Promise<void>
}

/** Starts `tuma serve --smpp-port` (extra flags in `args`) on `databaseUrl`; resolves once it listens. */
export const startTuma = async (
  databaseUrl: string,
  options: { readonly port?: number; readonly smppPort?: number; readonly args?: ReadonlyArray<string> } = {}
): Promise<TumaProcess> => {
  const port = options.port ?? await freePort()
  const smppPort = options.smppPort ?? await freePort()
  const child = spawn(
    process.execPath,
    [
      // NODE_ARGS: extra node flags for the server (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof")
      ...(process.env.NODE_ARGS ?? "").split(" ").filter((a) => a !== ""),
      "--conditions=@tuma/source",
      "--import",
      "tsx",
      "packages/http/src/bin.ts",
      "serve",
      "--port",
      String(port),
      "--smpp-port",
      String(smppPort),
      ...(options.args ?? [])
    ],
    {
      cwd: root,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        TUMA_ADMIN_TOKEN: ADMIN,
        TUMA_RATE_LIMIT_PER_MINUTE: "1000000000",
        NODE_ENV: "production"
      }
    }
  )
  let out = ""
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()))
  child.stderr!.on("data", (d: Buffer) => (out += d.toString()))
  const deadline = Date.now() + 120_000
  while (!/smpp listening on/.test(out)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`tuma did not start:\n${out.slice(-2000)}`)
    await new Promise((r) => setTimeout(r, 100))
  }
  const stop = (signal: NodeJS.Signals = "SIGTERM") =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve()
      child.once("exit", () => resolve())
      process.kill(-child.pid!, signal)
    })
  return { child, base: `http://127.0.0.1:${port}`, smppPort, out: () => out, stop }
}

/** POSTs `body` to the admin API of the server at `base`; answers `data`, throws on an error status. */
export const admin = async (base: string, path: string, body: unknown) => {
  const r = await fetch(`${base}/admin/v1${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
    body: JSON.stringify(body)
  })
  const json = (await r.json()) as { data?: Record<string, unknown> }
  if (r.status >= 300) throw new Error(`${path}: ${r.status} ${JSON.stringify(json)}`)
  return json.data ?? {}
}

/** An account that may send to TZ as BENCH, and SMPP credentials with this throughput. */
export const seed = async (base: string, throughput: { readonly rate: number; readonly burst?: number }) => {
  const account = await admin(base, "/accounts", {
    name: "SMPP bench",
    email: `smpp-bench-${Date.now()}@example.com`,
    phone: "+255700000009",
    country: "TZ",
    phone_verified: true
  })
  const uid = String(account.uid)
  await admin(base, "/purchases", { account_uid: uid, country: "TZ", units: 50_000_000 })
  await admin(base, "/routes", { account_uid: uid, country: "TZ", phone: "+255700000009" })
  await admin(base, "/sender-ids", { account_uid: uid, sender_id: "BENCH", country: "TZ" })
  await admin(base, "/providers", {
    name: `sim-${Date.now()}`,
    kind: "simulated",
    credits: [{ country: "TZ", credit: 50_000_000 }]
  })
  const systemId = `b${Date.now() % 1e9}`
  const creds = await admin(base, "/smpp-accounts", { account_uid: uid, system_id: systemId, throughput })
  return { accountUid: uid, systemId, password: String(creds.password) }
}

/** CPU ticks (user + system) of these processes and their descendants, and of every PostgreSQL process. */
export const cpuTicks = (pids: ReadonlyArray<number>) => {
  const out = execFileSync("bash", [
    "-c",
    `t=0; for p in $(for g in ${pids.join(" ")}; do pgrep -g "$g"; done) $(pgrep -u postgres); do ` +
    `[ -r /proc/$p/stat ] && t=$((t + $(awk '{print $14 + $15}' /proc/$p/stat))); done; echo $t`
  ]).toString()
  return Number(out.trim())
}

/** CPU ticks (user + system) of every PostgreSQL process (the share of `cpuTicks` that is the database's). */
export const postgresTicks = () => {
  const out = execFileSync("bash", [
    "-c",
    `t=0; for p in $(pgrep -u postgres); do [ -r /proc/$p/stat ] && t=$((t + $(awk '{print $14 + $15}' /proc/$p/stat))); done; echo $t`
  ]).toString()
  return Number(out.trim())
}

/** The 1-minute load average (the machine is shared: figures are indicative). */
export const loadAverage = () => execFileSync("cat", ["/proc/loadavg"]).toString().split(" ")[0]

/** Overview: the platform live, from the server's metric registry, read every 2 seconds. */
import { useEffect, useRef, useState } from "react"
import { api } from "../api.js"
import type { ApiError } from "../api.js"
import { ErrorBox, Section, Table } from "../ui.js"

interface Figures {
  readonly at: string
  readonly accepted_total: number
  readonly queue_depth: number
  readonly webhook_queue_depth: number
  readonly webhook_endpoints_disabled: number
  readonly providers: ReadonlyArray<{
    provider: string
    delivered: number
    failed: number
    delivery_rate: number | null
    receipt_delay_mean_s: number | null
    bind_up: number | null
  }>
  readonly credit: ReadonlyArray<{ provider: string; country: string; units: number; low: boolean }>
}

const pct = (n: number | null) => (n === null ? "—" : `${(n * 100).toFixed(1)} %`)

/** The Overview page. */
export function OverviewPage() {
  const [figures, setFigures] = useState<Figures | undefined>(undefined)
  const [rate, setRate] = useState<number | null>(null)
  const [error, setError] = useState<ApiError | undefined>(undefined)
  const last = useRef<{ at: number; total: number } | null>(null)
  useEffect(() => {
    let live = true
    const read = () =>
      api<Figures>("GET", "/overview").then((f) => {
        if (!live) return
        const at = Date.parse(f.at)
        if (last.current !== null && at > last.current.at) {
          setRate((f.accepted_total - last.current.total) / ((at - last.current.at) / 1000))
        }
        last.current = { at, total: f.accepted_total }
        setFigures(f)
        setError(undefined)
      }, (e) => live && setError(e))
    void read()
    const timer = setInterval(read, 2000)
    return () => {
      live = false
      clearInterval(timer)
    }
  }, [])
  const low = figures?.credit.filter((c) => c.low) ?? []
  return (
    <>
      <h1>Overview</h1>
      <ErrorBox error={error} />
      {figures !== undefined && (
        <>
          <ul className="tiles" aria-label="Now">
            {([
              ["Accepted per second", rate === null ? "…" : rate.toFixed(1)],
              ["Queue depth", figures.queue_depth],
              ["Webhook endpoints disabled", figures.webhook_endpoints_disabled],
              ["Webhook queue", figures.webhook_queue_depth],
              ["Provider credit running low", low.length]
            ] as const).map(([label, value]) => (
              <li className="tile" key={label}>
                <span>{label}</span>
                <span className="big">{value}</span>
              </li>
            ))}
          </ul>
          <Section title="Providers">
            <Table
              rows={figures.providers}
              rowKey={(p) => p.provider}
              columns={[
                ["Provider", (p) => p.provider],
                ["Carrier bind", (p) => (p.bind_up === null ? "—" : p.bind_up === 1 ? "bound" : "down")],
                ["Delivery rate", (p) => pct(p.delivery_rate)],
                ["Delivered", (p) => p.delivered],
                ["Failed", (p) => p.failed],
                [
                  "Mean receipt delay",
                  (p) => p.receipt_delay_mean_s === null ? "—" : `${p.receipt_delay_mean_s.toFixed(2)} s`
                ]
              ]}
            />
          </Section>
          <Section title="Provider credit">
            <Table
              rows={figures.credit}
              rowKey={(c) => `${c.provider}-${c.country}`}
              columns={[
                ["Provider", (c) => c.provider],
                ["Country", (c) => c.country],
                ["Units", (c) => <span className={c.low ? "warn" : undefined}>{c.units}{c.low ? " (low)" : ""}</span>]
              ]}
            />
          </Section>
        </>
      )}
    </>
  )
}

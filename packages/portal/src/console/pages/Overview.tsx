/**
 * Overview: the platform live, from the server's metric registry, read every 2 seconds; first the
 * warnings of carrier coverage (an open market no carrier serves, an enabled carrier Tuma cannot start).
 */
import { useEffect, useRef, useState } from "react"
import { api } from "../api.js"
import type { ApiError } from "../api.js"
import { ErrorBox, Link, Name, Say, Section, Table, useT } from "../ui.js"

/** A warning of carrier coverage (domain `carrierWarnings`). */
type Warning =
  | { readonly kind: "market_without_carrier"; readonly country: string; readonly country_name: string }
  | {
    readonly kind: "carrier_not_started"
    readonly provider_uid: string
    readonly provider: string
    readonly reason: string
  }

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
  readonly warnings?: ReadonlyArray<Warning>
}

/** The warnings, each with where to fix it. */
function Warnings(props: { readonly warnings: ReadonlyArray<Warning> }) {
  const t = useT()
  if (props.warnings.length === 0) return null
  return (
    <section aria-label={t("Warnings")} className="card warn-box">
      <h2>{t("Warnings")}</h2>
      <ul>
        {props.warnings.map((w) =>
          w.kind === "market_without_carrier"
            ? (
              <li key={`m-${w.country}`}>
                {t(
                  "{country} has no enabled carrier: sends there are accepted and then fail with \"no carrier route\".",
                  { country: w.country_name }
                )} <Link to="/providers">{t("Providers")}</Link>
              </li>
            )
            : (
              <li key={`c-${w.provider_uid}`}>
                <Say
                  text="{provider} is enabled but not started: its settings are incomplete."
                  vars={{ provider: w.provider }}
                />{" "}
                <code>{w.reason}</code> <Link to="/providers">{t("Providers")}</Link>
              </li>
            )
        )}
      </ul>
    </section>
  )
}

const pct = (n: number | null) => (n === null ? "—" : `${(n * 100).toFixed(1)} %`)

/** The Overview page. */
export function OverviewPage() {
  const t = useT()
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
      <h1>{t("Overview")}</h1>
      <ErrorBox error={error} />
      {figures !== undefined && (
        <>
          <Warnings warnings={figures.warnings ?? []} />
          <ul className="tiles" aria-label={t("Now")}>
            {([
              ["Accepted per second", rate === null ? "…" : rate.toFixed(1)],
              ["Queue depth", figures.queue_depth],
              ["Webhook endpoints disabled", figures.webhook_endpoints_disabled],
              ["Webhook queue", figures.webhook_queue_depth],
              ["Provider credit running low", low.length]
            ] as const).map(([label, value]) => (
              <li className="tile" key={label}>
                <span>{t(label)}</span>
                <span className="big">{value}</span>
              </li>
            ))}
          </ul>
          <Section title={t("Providers")}>
            <Table
              rows={figures.providers}
              rowKey={(p) => p.provider}
              columns={[
                [t("Provider"), (p) => <Name>{p.provider}</Name>],
                [t("Carrier bind"), (p) => (p.bind_up === null ? "—" : p.bind_up === 1 ? t("bound") : t("down"))],
                [t("Delivery rate"), (p) => pct(p.delivery_rate)],
                [t("Delivered"), (p) => p.delivered],
                [t("Failed"), (p) => p.failed],
                [
                  t("Mean receipt delay"),
                  (p) => p.receipt_delay_mean_s === null ? "—" : `${p.receipt_delay_mean_s.toFixed(2)} s`
                ]
              ]}
            />
          </Section>
          <Section title={t("Provider credit")}>
            <Table
              rows={figures.credit}
              rowKey={(c) => `${c.provider}-${c.country}`}
              columns={[
                [t("Provider"), (c) => <Name>{c.provider}</Name>],
                [t("Country"), (c) => c.country],
                [
                  t("Units"),
                  (c) => <span className={c.low ? "warn" : undefined}>{c.units}{c.low ? ` (${t("low")})` : ""}</span>
                ]
              ]}
            />
          </Section>
        </>
      )}
    </>
  )
}

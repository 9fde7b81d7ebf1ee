/** Balance per country, messages today and over 7 days by status (a plain SVG chart), delivery rate, recent failures. */
import type { Dashboard, StatusCounts } from "@tuma/http/portal/Api"
import { call } from "../api.js"
import { formatDay, formatNumber, formatPercent } from "../format.js"
import { type T, useI18n } from "../i18n.js"
import { Link } from "../router.js"
import { useZone } from "../session.js"
import { Loading, PageTitle, ServerText, statusLabel, Time, useLoad } from "../ui.js"
import { Table, Tiles } from "../widgets.js"

const STATUSES = ["delivered", "sent", "processing", "queued", "scheduled", "failed"] as const
const COLORS: Record<(typeof STATUSES)[number], string> = {
  delivered: "#1b7f3b",
  sent: "#3a7bd5",
  processing: "#7aa7e8",
  queued: "#b8c7dc",
  scheduled: "#d9c36a",
  failed: "#c0392b"
}

function Chart(props: { readonly days: Dashboard["last_7_days"]; readonly t: T }) {
  const { lang } = useI18n()
  const { t } = props
  const max = Math.max(1, ...props.days.map((d) => d.counts.total))
  const w = 560
  const h = 220
  const pad = 28
  const bw = (w - pad * 2) / Math.max(1, props.days.length)
  const summary = props.days.map((d) => `${d.date}: ${d.counts.total}`).join(", ")
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${w} ${h + 40}`} role="img" aria-label={`${t("Messages over 7 days by status")}: ${summary}`}>
        <line x1={pad} y1={h} x2={w - pad} y2={h} stroke="#888" />
        {props.days.map((d, i) => {
          let y = h
          return (
            <g key={d.date}>
              {STATUSES.map((s) => {
                const n = d.counts[s]
                if (n === 0) return null
                const bh = (n / max) * (h - 20)
                y -= bh
                return (
                  <rect key={s} x={pad + i * bw + 6} y={y} width={bw - 12} height={bh} fill={COLORS[s]}>
                    <title>{`${statusLabel(t, s)}: ${n}`}</title>
                  </rect>
                )
              })}
              <text
                x={pad + i * bw + bw / 2}
                y={h - 4 - (d.counts.total / max) * (h - 20)}
                textAnchor="middle"
                fontSize="12"
              >
                {d.counts.total}
              </text>
              <text x={pad + i * bw + bw / 2} y={h + 16} textAnchor="middle" fontSize="11">
                {formatDay(d.date, lang)}
              </text>
            </g>
          )
        })}
      </svg>
      <figcaption className="legend">
        {STATUSES.map((s) => (
          <span key={s}>
            <span className="swatch" style={{ background: COLORS[s] }} aria-hidden="true" /> {statusLabel(t, s)}
          </span>
        ))}
      </figcaption>
    </figure>
  )
}

function Counts(props: { readonly counts: StatusCounts; readonly caption: string }) {
  const { t, lang } = useI18n()
  return (
    <div className="table-wrap">
      <table>
        <caption>{props.caption}</caption>
        <thead>
          <tr>
            {STATUSES.map((s) => <th key={s} scope="col">{statusLabel(t, s)}</th>)}
            <th scope="col">{t("Total")}</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            {STATUSES.map((s) => <td key={s}>{formatNumber(props.counts[s], lang)}</td>)}
            <td>{formatNumber(props.counts.total, lang)}</td>
          </tr>
        </tbody>
      </table>
    </div>
  )
}

export function DashboardPage() {
  const { t, lang } = useI18n()
  const zone = useZone()
  const loaded = useLoad(() => call((c) => c.portalDashboard.dashboard({ urlParams: { tz: zone } })), [zone])
  const d = loaded.data?.data
  const inbox = useLoad(() => call((c) => c.portalInbox.inboxUnread()), [])
  return (
    <>
      <PageTitle>{t("Dashboard")}</PageTitle>
      <Loading loaded={loaded} />
      {d !== undefined && (
        <>
          <section aria-labelledby="balances">
            <h2 id="balances">{t("Balance per country")}</h2>
            <Tiles
              items={d.balances}
              itemKey={(b) => b.country}
              balance={(b) => b.balance}
              label={(b) => `${b.country}${b.calling_code !== null ? ` (+${b.calling_code})` : ""} · ${t("SMS units")}`}
              empty={<li>{t("No wallets yet.")}</li>}
            />
          </section>
          <section aria-labelledby="inbox">
            <h2 id="inbox">{t("Inbox")}</h2>
            <p>
              <Link to="/inbox">
                {t("Unread messages: {n}", { n: formatNumber(inbox.data?.data.unread ?? 0, lang) })}
              </Link>
            </p>
          </section>
          <section aria-labelledby="rate">
            <h2 id="rate">{t("Delivery rate")}</h2>
            <p className="big">
              {d.delivery_rate.rate === null ? "—" : formatPercent(d.delivery_rate.rate, lang)}
            </p>
            <p>
              {t("{delivered} delivered, {failed} failed over the last 7 days.", {
                delivered: formatNumber(d.delivery_rate.delivered, lang),
                failed: formatNumber(d.delivery_rate.failed, lang)
              })}
            </p>
          </section>
          <section aria-labelledby="today">
            <h2 id="today">{t("Messages today")}</h2>
            <Counts counts={d.today} caption={t("Messages today by status")} />
          </section>
          <section aria-labelledby="week">
            <h2 id="week">{t("Messages over 7 days")}</h2>
            <Chart days={d.last_7_days} t={t} />
          </section>
          <section aria-labelledby="failures">
            <h2 id="failures">{t("Recent failures")}</h2>
            {d.recent_failures.length === 0 ? <p>{t("No failures.")}</p> : (
              <Table
                rows={d.recent_failures}
                rowKey={(f) => f.uid}
                columns={[
                  [t("Recipient"), (f) => <Link to={`/messages/${f.uid}`}>{f.recipient}</Link>],
                  [t("Sender ID"), (f) => f.sender_id],
                  [t("Reason"), (f) => f.failure_reason === null ? "—" : <ServerText text={f.failure_reason} />],
                  [t("Time"), (f) => <Time iso={f.failed_at ?? f.created_at} />]
                ]}
              />
            )}
          </section>
        </>
      )}
    </>
  )
}

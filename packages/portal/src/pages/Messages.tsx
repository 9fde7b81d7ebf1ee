/** The message list (the API's filters, newest first, CSV export) and one message's timeline. */
import { useState } from "react"
import { call } from "../api.js"
import { useI18n } from "../i18n.js"
import { Link } from "../router.js"
import { Field, Loading, PageTitle, Status, statusLabel, Time, useLoad } from "../ui.js"

/** The API's status filter (spec §4.3). */
const STATUSES = ["queued", "sent", "delivered", "failed"] as const
type StatusFilter = (typeof STATUSES)[number]

interface Filters {
  readonly status: StatusFilter | ""
  readonly channel: "api" | "web" | ""
  readonly from: string
  readonly to: string
}

const query = (f: Filters, page: number) => {
  const q: Record<string, string> = {}
  if (f.status !== "") q.status = f.status
  if (f.channel !== "") q.channel = f.channel
  if (f.from !== "") q.from = f.from
  if (f.to !== "") q.to = f.to
  return { q, page }
}

export function MessagesPage() {
  const { t } = useI18n()
  const [filters, setFilters] = useState<Filters>({ status: "", channel: "", from: "", to: "" })
  const [page, setPage] = useState(1)
  const loaded = useLoad(
    () =>
      call((c) =>
        c.portalMessages.listMessages({
          urlParams: {
            ...(filters.status !== "" ? { status: filters.status } : {}),
            ...(filters.channel !== "" ? { channel: filters.channel } : {}),
            ...(filters.from !== "" ? { from: filters.from } : {}),
            ...(filters.to !== "" ? { to: filters.to } : {}),
            page,
            per_page: 25
          }
        })
      ),
    [filters, page]
  )
  const set = (patch: Partial<Filters>) => {
    setFilters({ ...filters, ...patch })
    setPage(1)
  }
  const csv = new URLSearchParams(query(filters, 1).q).toString()
  const meta = loaded.data?.meta
  return (
    <>
      <PageTitle>{t("Messages")}</PageTitle>
      <form className="filters" role="search" aria-label={t("Filters")} onSubmit={(e) => e.preventDefault()}>
        <Field label={t("Status")}>
          <select value={filters.status} onChange={(e) => set({ status: e.currentTarget.value as StatusFilter | "" })}>
            <option value="">{t("Any")}</option>
            {STATUSES.map((s) => <option key={s} value={s}>{statusLabel(t, s)}</option>)}
          </select>
        </Field>
        <Field label={t("Channel")}>
          <select
            value={filters.channel}
            onChange={(e) => set({ channel: e.currentTarget.value as Filters["channel"] })}
          >
            <option value="">{t("Any")}</option>
            <option value="api">API</option>
            <option value="web">{t("Portal")}</option>
          </select>
        </Field>
        <Field label={t("From")}>
          <input type="date" value={filters.from} onChange={(e) => set({ from: e.currentTarget.value })} />
        </Field>
        <Field label={t("To")}>
          <input type="date" value={filters.to} onChange={(e) => set({ to: e.currentTarget.value })} />
        </Field>
        <a
          className="button"
          href={`/portal/api/messages/export.csv${csv === "" ? "" : `?${csv}`}`}
          download="messages.csv"
        >
          {t("Export CSV")}
        </a>
      </form>
      <Loading loaded={loaded} />
      {loaded.data !== undefined && (
        <>
          <table>
            <caption>{t("{total} messages, newest first", { total: meta?.total ?? 0 })}</caption>
            <thead>
              <tr>
                <th scope="col">{t("Recipient")}</th>
                <th scope="col">{t("Sender ID")}</th>
                <th scope="col">{t("Status")}</th>
                <th scope="col">{t("Channel")}</th>
                <th scope="col">{t("Campaign")}</th>
                <th scope="col">{t("Units")}</th>
                <th scope="col">{t("Queued")}</th>
                <th scope="col">{t("Reason")}</th>
              </tr>
            </thead>
            <tbody>
              {loaded.data.data.map((m) => (
                <tr key={m.uid}>
                  <td>
                    <Link to={`/messages/${m.uid}`}>{m.recipient}</Link>
                  </td>
                  <td>{m.sender_id}</td>
                  <td>
                    <Status status={m.status} />
                  </td>
                  <td>{m.channel === "web" ? t("Portal") : "API"}</td>
                  <td>{m.campaign_name ?? ""}</td>
                  <td>{m.units}</td>
                  <td>
                    <Time iso={m.queued_at} />
                  </td>
                  <td>{m.failure_reason ?? ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {meta !== undefined && meta.last_page > 1 && (
            <nav aria-label={t("Pages")} className="pager">
              <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>{t("Previous page")}</button>
              <span>{t("Page {page} of {last}", { page: meta.current_page, last: meta.last_page })}</span>
              <button type="button" disabled={page >= meta.last_page} onClick={() => setPage(page + 1)}>
                {t("Next page")}
              </button>
            </nav>
          )}
        </>
      )}
    </>
  )
}

const eventNames: Record<string, string> = {
  created: "Created",
  scheduled: "Scheduled",
  queued: "Queued",
  sent: "Sent",
  delivered: "Delivered",
  failed: "Failed",
  delivery_report: "Delivery report"
}

export function MessagePage(props: { readonly uid: string }) {
  const { t } = useI18n()
  const loaded = useLoad(() => call((c) => c.portalMessages.getMessage({ path: { uid: props.uid } })), [props.uid])
  const d = loaded.data?.data
  return (
    <>
      <PageTitle>{t("Message")}</PageTitle>
      <p>
        <Link to="/messages">{t("Back to messages")}</Link>
      </p>
      <Loading loaded={loaded} />
      {d !== undefined && (
        <>
          <dl className="facts card">
            <div>
              <dt>{t("Recipient")}</dt>
              <dd>{d.message.recipient} ({d.country})</dd>
            </div>
            <div>
              <dt>{t("Sender ID")}</dt>
              <dd>{d.message.sender_id}</dd>
            </div>
            <div>
              <dt>{t("Status")}</dt>
              <dd>
                <Status status={d.message.status} />
              </dd>
            </div>
            <div>
              <dt>{t("Units")}</dt>
              <dd>{d.message.units}</dd>
            </div>
            {d.message.campaign_name !== undefined && (
              <div>
                <dt>{t("Campaign")}</dt>
                <dd>
                  {d.message.campaign_uid !== undefined
                    ? <Link to={`/campaigns/${d.message.campaign_uid}`}>{d.message.campaign_name}</Link>
                    : d.message.campaign_name}
                </dd>
              </div>
            )}
            {d.message.failure_reason !== null && (
              <div>
                <dt>{t("Reason")}</dt>
                <dd>{d.message.failure_reason}</dd>
              </div>
            )}
          </dl>
          <section aria-labelledby="text">
            <h2 id="text">{t("Text")}</h2>
            <p className="body" aria-label={t("Message text")}>{d.text}</p>
          </section>
          <section aria-labelledby="timeline">
            <h2 id="timeline">{t("Timeline")}</h2>
            <ol className="timeline">
              {d.timeline.map((e, i) => (
                <li key={i}>
                  <Time iso={e.at} /> — <strong>{t(eventNames[e.event] ?? e.event)}</strong>
                  {e.detail !== null && <span>: {e.detail}</span>}
                </li>
              ))}
            </ol>
          </section>
          <section aria-labelledby="hooks">
            <h2 id="hooks">{t("Webhook deliveries")}</h2>
            {d.webhooks.length === 0 ? <p>{t("None.")}</p> : d.webhooks.map((w) => (
              <div key={w.uid} className="card">
                <p>
                  {w.event} → <Status status={w.status} /> · {t("Attempts")}: {w.attempts}
                </p>
                <ol>
                  {w.attempt_log.map((a) => (
                    <li key={a.attempt}>
                      #{a.attempt} <Time iso={a.attempted_at} /> <Status status={a.outcome} /> {a.response_status ?? ""}
                      {" "}
                      {a.latency_ms} ms {a.error ?? ""}
                    </li>
                  ))}
                </ol>
              </div>
            ))}
          </section>
        </>
      )}
    </>
  )
}

/** The message list (the API's filters, newest first, CSV export) and one message's timeline. */
import { useState } from "react"
import { call } from "../api.js"
import { useI18n } from "../i18n.js"
import { Link } from "../router.js"
import { Pager } from "../shared/table.js"
import { Field, Loading, PageTitle, ServerText, Status, statusLabel, Time, useLoad } from "../ui.js"
import { AttemptLog, DetailPage, Facts, Table } from "../widgets.js"

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
  return (
    <>
      <PageTitle>{t("Messages")}</PageTitle>
      <MessageList />
    </>
  )
}

/**
 * The filtered, paged message list with its CSV export: every message of the account, or one
 * campaign's (its recipients, `campaignUid`).
 */
export function MessageList(props: { readonly campaignUid?: string }) {
  const { t } = useI18n()
  const campaign = props.campaignUid
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
            ...(campaign !== undefined ? { campaign_uid: campaign } : {}),
            page,
            per_page: 25
          }
        })
      ),
    [filters, page, campaign]
  )
  const set = (patch: Partial<Filters>) => {
    setFilters({ ...filters, ...patch })
    setPage(1)
  }
  const csv = new URLSearchParams({
    ...query(filters, 1).q,
    ...(campaign !== undefined ? { campaign_uid: campaign } : {})
  }).toString()
  const meta = loaded.data?.meta
  return (
    <>
      <form className="filters" role="search" aria-label={t("Filters")} onSubmit={(e) => e.preventDefault()}>
        <Field label={t("Status")}>
          <select value={filters.status} onChange={(e) => set({ status: e.currentTarget.value as StatusFilter | "" })}>
            <option value="">{t("Any")}</option>
            {STATUSES.map((s) => <option key={s} value={s}>{statusLabel(t, s)}</option>)}
          </select>
        </Field>
        {campaign === undefined && (
          <>
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
          </>
        )}
        <a
          className="button"
          href={`/portal/api/messages/export.csv${csv === "" ? "" : `?${csv}`}`}
          download={campaign !== undefined ? "campaign.csv" : "messages.csv"}
        >
          {t("Export CSV")}
        </a>
      </form>
      <Loading loaded={loaded} />
      {loaded.data !== undefined && (
        <>
          <Table
            caption={campaign !== undefined
              ? t("{total} recipients, newest first", { total: meta?.total ?? 0 })
              : t("{total} messages, newest first", { total: meta?.total ?? 0 })}
            rows={loaded.data.data}
            rowKey={(m) => m.uid}
            columns={[
              [t("Recipient"), (m) => <Link to={`/messages/${m.uid}`}>{m.recipient}</Link>],
              [t("Sender ID"), (m) => m.sender_id],
              [t("Status"), (m) => <Status status={m.status} />],
              campaign === undefined && [t("Channel"), (m) => m.channel === "web" ? t("Portal") : "API"],
              campaign === undefined && [t("Campaign"), (m) => m.campaign_name ?? ""],
              [t("Units"), (m) => m.units],
              [t("Queued"), (m) => <Time iso={m.queued_at} />],
              [t("Reason"), (m) => m.failure_reason === null ? "" : <ServerText text={m.failure_reason} />]
            ]}
          />
          {meta !== undefined && <Pager page={meta.current_page} last={meta.last_page} onPage={setPage} t={t} />}
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
  return (
    <DetailPage title={t("Message")} back={["/messages", t("Back to messages")]} loaded={loaded}>
      {(d) => (
        <>
          <Facts
            className="facts card"
            facts={[
              [t("Recipient"), `${d.message.recipient} (${d.country})`],
              [t("Sender ID"), d.message.sender_id],
              [t("Status"), <Status status={d.message.status} />],
              [t("Units"), d.message.units],
              d.message.campaign_name !== undefined && [
                t("Campaign"),
                d.message.campaign_uid !== undefined
                  ? (
                    <Link to={`/campaigns/${d.message.campaign_uid}`}>
                      <span translate="no">{d.message.campaign_name}</span>
                    </Link>
                  )
                  : d.message.campaign_name
              ],
              d.message.failure_reason !== null && [t("Reason"), <ServerText text={d.message.failure_reason} />]
            ]}
          />
          <section aria-labelledby="text">
            <h2 id="text">{t("Text")}</h2>
            <p className="body" aria-label={t("Message text")} translate="no">{d.text}</p>
          </section>
          <section aria-labelledby="timeline">
            <h2 id="timeline">{t("Timeline")}</h2>
            <ol className="timeline">
              {d.timeline.map((e, i) => (
                <li key={i}>
                  <Time iso={e.at} /> — <strong>{t(eventNames[e.event] ?? e.event)}</strong>
                  {e.detail !== null && (
                    <span>
                      : <ServerText text={e.detail} />
                    </span>
                  )}
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
                <AttemptLog attempts={w.attempt_log} numbered />
              </div>
            ))}
          </section>
        </>
      )}
    </DetailPage>
  )
}

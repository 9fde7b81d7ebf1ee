/** Webhook deliveries: an account's endpoints (chosen by name), their deliveries by status, attempts, redeliver. */
import { useState } from "react"
import { api } from "../api.js"
import { Select, useAction } from "../forms.js"
import { useMay } from "../session.js"
import { ErrorBox, Loading, Section, Status, Table, Time, useLoad, useT } from "../ui.js"
import type { RedeliveryView, WebhookDeliveryDetailView, WebhookDeliveryView, WebhookEndpointView } from "../views.js"
import { AccountPicker } from "./Accounts.js"

function Delivery(props: { readonly uid: string }) {
  const t = useT()
  const may = useMay()
  const detail = useLoad<WebhookDeliveryDetailView>(() => api("GET", `/webhook-deliveries/${props.uid}`), [props.uid])
  const action = useAction()
  const [redelivered, setRedelivered] = useState<string | null>(null)
  return (
    <Section title={t("Delivery")}>
      <Loading loaded={detail} />
      {detail.data !== undefined && (
        <>
          <pre className="body" translate="no">{detail.data.body}</pre>
          <Table
            caption={t("Attempts")}
            rows={detail.data.attempts ?? []}
            rowKey={(a) => a.uid ?? a.attempted_at ?? a.created_at}
            columns={[
              [t("When"), (a) => <Time iso={a.attempted_at ?? a.created_at} />],
              [t("Outcome"), (a) => <Status status={a.outcome} />],
              [t("Status code"), (a) => a.status_code ?? a.response_status ?? "—"]
            ]}
          />
          {may("webhooks.redeliver") && detail.data.delivery?.event !== "webhook.test" && (
            <button
              type="button"
              disabled={action.busy}
              onClick={() =>
                void action.run(async () => {
                  const r = await api<RedeliveryView>("POST", `/webhook-deliveries/${props.uid}/redeliver`)
                  setRedelivered(t("Redelivery queued ({id}).", { id: r.deliveryId }))
                })}
            >
              {t("Redeliver")}
            </button>
          )}
          <ErrorBox error={action.error} />
          {redelivered !== null && <p role="status">{redelivered}</p>}
        </>
      )}
    </Section>
  )
}

/** The Webhook deliveries page. */
export function WebhooksPage() {
  const t = useT()
  const [account, setAccount] = useState("")
  const endpoints = useLoad<ReadonlyArray<WebhookEndpointView>>(
    () => api("GET", `/webhooks${account !== "" ? `?account=${encodeURIComponent(account)}` : ""}`),
    [account]
  )
  const [endpoint, setEndpoint] = useState<string | null>(null)
  const [status, setStatus] = useState("")
  const deliveries = useLoad<ReadonlyArray<WebhookDeliveryView>>(
    () =>
      endpoint === null
        ? Promise.resolve([])
        : api("GET", `/webhooks/${endpoint}/deliveries${status ? `?status=${status}` : ""}`),
    [endpoint, status]
  )
  const [delivery, setDelivery] = useState<string | null>(null)
  return (
    <>
      <h1>{t("Webhook deliveries")}</h1>
      <AccountPicker
        value={account}
        onChange={(uid) => {
          setAccount(uid)
          setEndpoint(null)
          setDelivery(null)
        }}
        empty={t("Every account")}
      />
      <Loading loaded={endpoints} />
      <Table
        caption={t("Endpoints")}
        rows={endpoints.data ?? []}
        rowKey={(e) => e.id ?? e.uid}
        columns={[
          ["URL", (e) => <span translate="no" className="break">{e.url}</span>],
          [t("Status"), (e) => <Status status={e.disabled_at ? "disabled" : "enabled"} />],
          ["", (e) => (
            <button type="button" className="link" onClick={() => setEndpoint(e.id ?? e.uid)}>
              {t("Deliveries of {url}", { url: e.url })}
            </button>
          )]
        ]}
      />
      {endpoint !== null && (
        <Section title={t("Deliveries")}>
          <Select
            label={t("Delivery status")}
            options={[["", t("any")], ["pending", t("Pending")], ["succeeded", t("Succeeded")], [
              "failed",
              t("Failed")
            ]]}
            value={status}
            onChange={(e) => setStatus(e.currentTarget.value)}
          />
          <Table
            rows={deliveries.data ?? []}
            rowKey={(d) => d.id ?? d.uid}
            columns={[
              [
                t("Event"),
                (d) => d.event === "webhook.test" ? t("Test event") : <code>{d.event_type ?? d.event}</code>
              ],
              [t("Status"), (d) => <Status status={d.status} />],
              [t("Attempts"), (d) => d.attempts ?? d.attempt_count ?? ""],
              ["", (d) => (
                <button
                  type="button"
                  className="link"
                  onClick={() => setDelivery(d.id ?? d.uid)}
                >
                  {t("Inspect")}
                </button>
              )]
            ]}
          />
        </Section>
      )}
      {delivery !== null && <Delivery key={delivery} uid={delivery} />}
    </>
  )
}

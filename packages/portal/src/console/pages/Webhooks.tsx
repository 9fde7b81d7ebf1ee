/** Webhook deliveries: search by endpoint and status, inspect attempts, redeliver. */
import { useState } from "react"
import { api } from "../api.js"
import { Field, Select, useAction } from "../forms.js"
import { useMay } from "../session.js"
import { ErrorBox, Loading, Section, Status, Table, Time, useLoad } from "../ui.js"
import type { RedeliveryView, WebhookDeliveryDetailView, WebhookDeliveryView, WebhookEndpointView } from "../views.js"

function Delivery(props: { readonly uid: string }) {
  const may = useMay()
  const detail = useLoad<WebhookDeliveryDetailView>(() => api("GET", `/webhook-deliveries/${props.uid}`), [props.uid])
  const action = useAction()
  const [redelivered, setRedelivered] = useState<string | null>(null)
  return (
    <Section title="Delivery">
      <Loading loaded={detail} />
      {detail.data !== undefined && (
        <>
          <pre className="body">{detail.data.body}</pre>
          <Table
            caption="Attempts"
            rows={detail.data.attempts ?? []}
            rowKey={(a) => a.uid ?? a.attempted_at ?? a.created_at}
            columns={[
              ["When", (a) => <Time iso={a.attempted_at ?? a.created_at} />],
              ["Outcome", (a) => a.outcome],
              ["Status code", (a) => a.status_code ?? a.response_status ?? "—"]
            ]}
          />
          {may("webhooks.redeliver") && (
            <button
              type="button"
              disabled={action.busy}
              onClick={() =>
                void action.run(async () => {
                  const r = await api<RedeliveryView>("POST", `/webhook-deliveries/${props.uid}/redeliver`)
                  setRedelivered(`Redelivery queued (${r.deliveryId}).`)
                })}
            >
              Redeliver
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
  const [account, setAccount] = useState("")
  const endpoints = useLoad<ReadonlyArray<WebhookEndpointView>>(
    () => api("GET", `/webhooks${account.trim() !== "" ? `?account=${encodeURIComponent(account.trim())}` : ""}`),
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
      <h1>Webhook deliveries</h1>
      <Field label="Account ID">
        <input type="search" value={account} onChange={(e) => setAccount(e.currentTarget.value)} />
      </Field>
      <Loading loaded={endpoints} />
      <Table
        caption="Endpoints"
        rows={endpoints.data ?? []}
        rowKey={(e) => e.id ?? e.uid}
        columns={[
          ["URL", (e) => e.url],
          ["Status", (e) => <Status status={e.disabled_at ? "disabled" : "enabled"} />],
          ["", (e) => (
            <button type="button" className="link" onClick={() => setEndpoint(e.id ?? e.uid)}>
              Deliveries of {e.url}
            </button>
          )]
        ]}
      />
      {endpoint !== null && (
        <Section title="Deliveries">
          <Select
            label="Delivery status"
            options={[["", "any"], "pending", "succeeded", "failed"]}
            value={status}
            onChange={(e) => setStatus(e.currentTarget.value)}
          />
          <Table
            rows={deliveries.data ?? []}
            rowKey={(d) => d.id ?? d.uid}
            columns={[
              ["Event", (d) => d.event_type ?? d.event],
              ["Status", (d) => <Status status={d.status} />],
              ["Attempts", (d) => d.attempts ?? d.attempt_count ?? ""],
              ["", (d) => (
                <button
                  type="button"
                  className="link"
                  onClick={() => setDelivery(d.id ?? d.uid)}
                >
                  Inspect
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

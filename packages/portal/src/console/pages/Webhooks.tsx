/** Webhook deliveries: search by endpoint and status, inspect attempts, redeliver. */
import { useState } from "react"
import { api } from "../api.js"
import { useMay } from "../session.js"
import { ErrorBox, Field, Head, Loading, Section, Status, Time, useAction, useLoad } from "../ui.js"

function Delivery(props: { readonly uid: string }) {
  const may = useMay()
  const detail = useLoad<any>(() => api("GET", `/webhook-deliveries/${props.uid}`), [props.uid])
  const action = useAction()
  const [redelivered, setRedelivered] = useState<string | null>(null)
  return (
    <Section title="Delivery">
      <Loading loaded={detail} />
      {detail.data !== undefined && (
        <>
          <pre className="body">{detail.data.body}</pre>
          <table>
            <caption>Attempts</caption>
            <Head cols={["When", "Outcome", "Status code"]} />
            <tbody>
              {(detail.data.attempts ?? []).map((a: any, i: number) => (
                <tr key={a.uid ?? i}>
                  <td>
                    <Time iso={a.attempted_at ?? a.created_at} />
                  </td>
                  <td>{a.outcome}</td>
                  <td>{a.status_code ?? a.response_status ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {may("webhooks.redeliver") && (
            <button
              type="button"
              disabled={action.busy}
              onClick={() =>
                void action.run(async () => {
                  const r = await api("POST", `/webhook-deliveries/${props.uid}/redeliver`)
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
  const endpoints = useLoad<ReadonlyArray<any>>(
    () => api("GET", `/webhooks${account.trim() !== "" ? `?account=${encodeURIComponent(account.trim())}` : ""}`),
    [account]
  )
  const [endpoint, setEndpoint] = useState<string | null>(null)
  const [status, setStatus] = useState("")
  const deliveries = useLoad<ReadonlyArray<any>>(
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
      <table>
        <caption>Endpoints</caption>
        <Head cols={["URL", "Status", ""]} />
        <tbody>
          {(endpoints.data ?? []).map((e) => (
            <tr key={e.id ?? e.uid}>
              <td>{e.url}</td>
              <td>
                <Status status={e.disabled_at ? "disabled" : "enabled"} />
              </td>
              <td>
                <button type="button" className="link" onClick={() => setEndpoint(e.id ?? e.uid)}>
                  Deliveries of {e.url}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {endpoint !== null && (
        <Section title="Deliveries">
          <Field label="Delivery status">
            <select value={status} onChange={(e) => setStatus(e.currentTarget.value)}>
              <option value="">any</option>
              <option value="pending">pending</option>
              <option value="succeeded">succeeded</option>
              <option value="failed">failed</option>
            </select>
          </Field>
          <table>
            <Head cols={["Event", "Status", "Attempts", ""]} />
            <tbody>
              {(deliveries.data ?? []).map((d) => (
                <tr key={d.id ?? d.uid}>
                  <td>{d.event_type ?? d.event}</td>
                  <td>
                    <Status status={d.status} />
                  </td>
                  <td>{d.attempts ?? d.attempt_count ?? ""}</td>
                  <td>
                    <button type="button" className="link" onClick={() => setDelivery(d.id ?? d.uid)}>Inspect</button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Section>
      )}
      {delivery !== null && <Delivery key={delivery} uid={delivery} />}
    </>
  )
}

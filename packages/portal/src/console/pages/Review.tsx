/**
 * Sender ID review: the queue oldest first; the open one with its documents previewed inline (a PDF
 * in an iframe, an image as an img); Approve, Reject with a Reason, Suspend.
 */
import { useEffect, useState } from "react"
import { api } from "../api.js"
import { useMay } from "../session.js"
import { ErrorBox, Field, Head, Loading, Section, Status, Time, useAction, useLoad } from "../ui.js"

function Document(props: { readonly doc: any }) {
  const src = `/console/api/sender-id-documents/${props.doc.uid}`
  if (props.doc.content_type.startsWith("image/")) {
    return <img src={src} alt={`Document ${props.doc.filename}`} style={{ maxWidth: "100%", maxHeight: 480 }} />
  }
  if (props.doc.content_type === "application/pdf") {
    return <iframe src={src} title={`Document ${props.doc.filename}`} style={{ width: "100%", height: 480 }} />
  }
  return <a href={src}>{props.doc.filename}</a>
}

function Decision(props: { readonly uid: string; readonly onDone: (decided: any) => void }) {
  const may = useMay()
  const detail = useLoad<any>(() => api("GET", `/sender-ids/${props.uid}`), [props.uid])
  const [reason, setReason] = useState("")
  const action = useAction()
  const decide = (decision: string) =>
    void action.run(async () => {
      const decided = await api("POST", `/sender-ids/${props.uid}/${decision}`, { reason })
      setReason("")
      detail.reload()
      props.onDone(decided)
    })
  const s = detail.data?.sender_id
  return (
    <Section title={s === undefined ? "Sender ID" : `Sender ID ${s.sender_id}`}>
      <Loading loaded={detail} />
      {s !== undefined && (
        <>
          <dl className="facts">
            <div>
              <dt>Sender ID</dt>
              <dd>{s.sender_id}</dd>
            </div>
            <div>
              <dt>Country</dt>
              <dd>{s.country_name}</dd>
            </div>
            <div>
              <dt>Status</dt>
              <dd>
                <Status status={s.status} />
              </dd>
            </div>
            <div>
              <dt>Requested</dt>
              <dd>
                <Time iso={s.requested_at} />
              </dd>
            </div>
          </dl>
          <p className="body">Sample message: {s.sample_message}</p>
          {s.purpose !== null && <p className="body">Purpose: {s.purpose}</p>}
          {s.rejection_reason !== null && <p>Reason: {s.rejection_reason}</p>}
          {detail.data.documents.map((d: any) => (
            <figure key={d.uid}>
              <figcaption>{d.filename} ({d.content_type}, {d.size_bytes} bytes)</figcaption>
              <Document doc={d} />
            </figure>
          ))}
          {may("sender_ids.review") && (
            <div>
              {(s.status === "pending" || s.status === "approved") && (
                <Field label="Reason" hint="Required to reject; told to the customer.">
                  <textarea
                    value={reason}
                    onChange={(e) =>
                      setReason(e.currentTarget.value)}
                  />
                </Field>
              )}
              <div className="actions">
                {s.status === "pending" && (
                  <>
                    <button type="button" disabled={action.busy} onClick={() => decide("approve")}>Approve</button>
                    <button type="button" disabled={action.busy} onClick={() => decide("reject")}>Reject</button>
                  </>
                )}
                {s.status === "approved" && (
                  <button
                    type="button"
                    disabled={action.busy}
                    onClick={() => decide("suspend")}
                  >
                    Suspend
                  </button>
                )}
              </div>
              <ErrorBox error={action.error} />
            </div>
          )}
        </>
      )}
    </Section>
  )
}

/** The Sender ID review page. */
export function ReviewPage() {
  const [status, setStatus] = useState("pending")
  const queue = useLoad<ReadonlyArray<any>>(() => api("GET", `/sender-ids?status=${status}`), [status])
  const [open, setOpen] = useState<string | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  useEffect(() => {
    if (queue.data !== undefined && (open === null || !queue.data.some((s) => s.uid === open))) {
      setOpen(queue.data[0]?.uid ?? null)
    }
  }, [queue.data])
  return (
    <>
      <h1>Sender ID review</h1>
      <Field label="Status">
        <select value={status} onChange={(e) => setStatus(e.currentTarget.value)}>
          <option value="pending">pending</option>
          <option value="approved">approved</option>
          <option value="rejected">rejected</option>
          <option value="suspended">suspended</option>
        </select>
      </Field>
      <Loading loaded={queue} />
      <table>
        <caption>{status === "pending" ? "Queue, oldest first" : status}</caption>
        <Head cols={["Sender ID", "Country", "Requested", ""]} />
        <tbody>
          {(queue.data ?? []).map((s) => (
            <tr key={s.uid} aria-current={s.uid === open ? "true" : undefined}>
              <td>{s.sender_id}</td>
              <td>{s.country}</td>
              <td>
                <Time iso={s.requested_at} />
              </td>
              <td>
                <button type="button" className="link" onClick={() => setOpen(s.uid)}>Open {s.sender_id}</button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {queue.data !== undefined && queue.data.length === 0 && <p>Nothing to review.</p>}
      {notice !== null && <p role="status">{notice}</p>}
      {open !== null && (
        <Decision
          key={open}
          uid={open}
          onDone={(decided) => {
            setNotice(`${decided.sender_id} is ${decided.status}; the customer is told by e-mail.`)
            queue.reload()
          }}
        />
      )}
    </>
  )
}

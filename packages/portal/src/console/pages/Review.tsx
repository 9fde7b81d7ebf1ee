/**
 * Sender ID review: the queue oldest first; the open one with its documents previewed inline (a PDF
 * drawn by pdf.js, `PdfPreview.tsx`; an image as an img); Approve, Reject with a Reason, Suspend.
 */
import { useEffect, useState } from "react"
import { api } from "../api.js"
import { Field, Select, useAction } from "../forms.js"
import { PdfPreview } from "../PdfPreview.js"
import { useMay } from "../session.js"
import { ErrorBox, Facts, Loading, Section, Status, Table, Time, useLoad } from "../ui.js"
import type { SenderIdDetailView, SenderIdDocumentView, SenderIdView } from "../views.js"
import { mailSaid } from "../views.js"

function Document(props: { readonly doc: SenderIdDocumentView }) {
  const src = `/console/api/sender-id-documents/${props.doc.uid}`
  if (props.doc.content_type.startsWith("image/")) {
    return <img src={src} alt={`Document ${props.doc.filename}`} style={{ maxWidth: "100%", maxHeight: 480 }} />
  }
  if (props.doc.content_type === "application/pdf") {
    return <PdfPreview src={src} name={props.doc.filename} />
  }
  return <a href={src}>{props.doc.filename}</a>
}

function Decision(props: { readonly uid: string; readonly onDone: (decided: SenderIdView) => void }) {
  const may = useMay()
  const detail = useLoad<SenderIdDetailView>(() => api("GET", `/sender-ids/${props.uid}`), [props.uid])
  const [reason, setReason] = useState("")
  const action = useAction()
  const decide = (decision: string) =>
    void action.run(async () => {
      const decided = await api<SenderIdView>("POST", `/sender-ids/${props.uid}/${decision}`, { reason })
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
          <Facts
            facts={[
              ["Sender ID", s.sender_id],
              ["Country", s.country_name],
              ["Status", <Status status={s.status} />],
              ["Requested", <Time iso={s.requested_at} />]
            ]}
          />
          <p className="body">Sample message: {s.sample_message}</p>
          {s.purpose !== null && <p className="body">Purpose: {s.purpose}</p>}
          {s.rejection_reason !== null && <p>Reason: {s.rejection_reason}</p>}
          {detail.data?.documents.map((d) => (
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
  const queue = useLoad<ReadonlyArray<SenderIdView>>(() => api("GET", `/sender-ids?status=${status}`), [status])
  const [open, setOpen] = useState<string | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  // The first of the list opens when the page (or the status) is shown: only while nothing is open.
  // A decision does not replace the open panel when the list is fetched again (the decided one
  // leaves the pending list): that re-mount, landing at an unforeseeable moment after the
  // decision, replaced the panel under the reviewer's pointer and lost clicks.
  useEffect(() => {
    if (open === null && queue.data !== undefined) setOpen(queue.data[0]?.uid ?? null)
  }, [queue.data, open])
  return (
    <>
      <h1>Sender ID review</h1>
      <Select
        label="Status"
        options={["pending", "approved", "rejected", "suspended"]}
        value={status}
        onChange={(e) => {
          setStatus(e.currentTarget.value)
          setOpen(null)
        }}
      />
      <Loading loaded={queue} />
      <Table
        caption={status === "pending" ? "Queue, oldest first" : status}
        rows={queue.data ?? []}
        rowKey={(s) => s.uid}
        rowProps={(s) => ({ "aria-current": s.uid === open ? "true" : undefined })}
        columns={[
          ["Sender ID", (s) => s.sender_id],
          ["Country", (s) => s.country],
          ["Requested", (s) => <Time iso={s.requested_at} />],
          ["", (s) => <button type="button" className="link" onClick={() => setOpen(s.uid)}>Open {s.sender_id}</button>]
        ]}
      />
      {queue.data !== undefined && queue.data.length === 0 && <p>Nothing to review.</p>}
      {notice !== null && <p role="status">{notice}</p>}
      {open !== null && (
        <Decision
          key={open}
          uid={open}
          onDone={(decided) => {
            setNotice(`${decided.sender_id} is ${decided.status}; the customer is ${mailSaid(decided.customer_mail)}.`)
            queue.reload()
          }}
        />
      )}
    </>
  )
}

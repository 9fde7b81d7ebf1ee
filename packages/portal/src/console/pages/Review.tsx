/**
 * Sender ID review: the queue oldest first; the open one with its documents previewed inline (a PDF
 * drawn by pdf.js, `PdfPreview.tsx`; an image as an img); Approve, Reject with a Reason, Suspend.
 */
import { useEffect, useState } from "react"
import { renderServerText } from "../../shared/messages.js"
import { api } from "../api.js"
import { Field, Select, useAction } from "../forms.js"
import { PdfPreview } from "../PdfPreview.js"
import { useMay } from "../session.js"
import { ErrorBox, Facts, Link, Loading, Section, Status, Table, Time, useLoad, useT } from "../ui.js"
import type { SenderIdDetailView, SenderIdDocumentView, SenderIdView } from "../views.js"
import { mailSaid } from "../views.js"

function Document(props: { readonly doc: SenderIdDocumentView }) {
  const t = useT()
  const src = `/console/api/sender-id-documents/${props.doc.uid}`
  if (props.doc.content_type.startsWith("image/")) {
    return (
      <img
        src={src}
        alt={t("Document {name}", { name: props.doc.filename })}
        style={{ maxWidth: "100%", maxHeight: 480 }}
      />
    )
  }
  if (props.doc.content_type === "application/pdf") {
    return <PdfPreview src={src} name={props.doc.filename} />
  }
  return <a href={src}>{props.doc.filename}</a>
}

function Decision(props: { readonly uid: string; readonly onDone: (decided: SenderIdView) => void }) {
  const t = useT()
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
    <Section title={s === undefined ? t("Sender ID") : t("Sender ID {name}", { name: s.sender_id })}>
      <Loading loaded={detail} />
      {s !== undefined && (
        <>
          <Facts
            facts={[
              [t("Sender ID"), s.sender_id],
              [
                t("Account"),
                s.account_uid === undefined
                  ? "—"
                  : <Link to={`/accounts/${s.account_uid}`}>{s.account_name ?? s.account_uid}</Link>
              ],
              [t("Country"), s.country_name],
              [t("Status"), <Status status={s.status} />],
              [t("Protection"), s.protection_requested === true ? t("Yes, requested") : t("Not requested")],
              [t("Requested at"), <Time iso={s.requested_at} />]
            ]}
          />
          <p className="body">
            {t("Sample message")}: <q translate="no">{s.sample_message}</q>
          </p>
          {s.purpose !== null && <p className="body">{t("Purpose")}: {t(s.purpose)}</p>}
          {s.rejection_reason !== null && (
            <p>
              {t("Reason")}: <span translate="no">{renderServerText(t, s.rejection_reason)}</span>
            </p>
          )}
          {detail.data?.documents.map((d) => (
            <figure key={d.uid}>
              <figcaption>
                <span translate="no">{d.filename}</span> ({d.content_type}, {t("{n} bytes", { n: d.size_bytes })})
              </figcaption>
              <Document doc={d} />
            </figure>
          ))}
          {may("sender_ids.review") && (
            <div>
              {(s.status === "pending" || s.status === "approved") && (
                <Field label={t("Reason")} hint={t("Required to reject; told to the customer.")}>
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
                    <button type="button" disabled={action.busy} onClick={() => decide("approve")}>
                      {t("Approve")}
                    </button>
                    <button type="button" disabled={action.busy} onClick={() => decide("reject")}>
                      {t("Reject")}
                    </button>
                  </>
                )}
                {s.status === "approved" && (
                  <button
                    type="button"
                    disabled={action.busy}
                    onClick={() => decide("suspend")}
                  >
                    {t("Suspend")}
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
  const t = useT()
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
      <h1>{t("Sender ID review")}</h1>
      <Select
        label={t("Status")}
        options={(["pending", "approved", "rejected", "suspended"] as const).map((v) => [
          v,
          t(v.charAt(0).toUpperCase() + v.slice(1))
        ])}
        value={status}
        onChange={(e) => {
          setStatus(e.currentTarget.value)
          setOpen(null)
        }}
      />
      <Loading loaded={queue} />
      <Table
        caption={status === "pending" ? t("Queue, oldest first") : t(status.charAt(0).toUpperCase() + status.slice(1))}
        rows={queue.data ?? []}
        rowKey={(s) => s.uid}
        rowProps={(s) => ({ "aria-current": s.uid === open ? "true" : undefined })}
        columns={[
          [t("Sender ID"), (s) => s.sender_id],
          [t("Account"), (s) => <span translate="no">{s.account_name ?? "—"}</span>],
          [t("Country"), (s) => s.country],
          [t("Protection"), (s) => (s.protection_requested === true ? t("Yes, requested") : t("Not requested"))],
          [t("Requested at"), (s) => <Time iso={s.requested_at} />],
          ["", (s) => (
            <button type="button" className="link" onClick={() => setOpen(s.uid)}>
              {t("Open {name}", { name: s.sender_id })}
            </button>
          )]
        ]}
      />
      {queue.data !== undefined && queue.data.length === 0 && <p>{t("Nothing to review.")}</p>}
      {notice !== null && <p role="status">{notice}</p>}
      {open !== null && (
        <Decision
          key={open}
          uid={open}
          onDone={(decided) => {
            setNotice(
              t("{name} is {status}; the customer is {mail}.", {
                name: decided.sender_id,
                status: t(decided.status),
                mail: t(mailSaid(decided.customer_mail))
              })
            )
            queue.reload()
          }}
        />
      )}
    </>
  )
}

/**
 * Outbox (admins): the mails Tuma kept instead of sending because no mail server is configured
 * (`TUMA_SMTP_URL`), newest first, each with its links — so a demo's invitations can be followed.
 */
import { api } from "../api.js"
import { Loading, Section, Time, useLoad } from "../ui.js"
import type { OutboxMailView } from "../views.js"

/** The links of a mail's text, to open or copy. */
const linksOf = (text: string): ReadonlyArray<string> => text.match(/https?:\/\/\S+/g) ?? []

/** The Outbox page. */
export function OutboxPage() {
  const mails = useLoad<ReadonlyArray<OutboxMailView>>(() => api("GET", "/outbox"), [])
  const rows = mails.data ?? []
  return (
    <>
      <h1>Outbox</h1>
      <p>
        No mail server is configured (<code>TUMA_SMTP_URL</code>), so these mails were{" "}
        <strong>not sent</strong>: they are kept here for you to read or pass on. With a mail server, mails are sent and
        none is added here.
      </p>
      <Loading loaded={mails} />
      {mails.data !== undefined && rows.length === 0 && <p>The outbox is empty.</p>}
      {rows.map((m) => (
        <Section key={m.uid} title={`${m.subject} — to ${m.to}`}>
          <p>
            To <strong>{m.to}</strong>, <Time iso={m.created_at} />
          </p>
          <pre className="body">{m.text}</pre>
          {linksOf(m.text).map((link) => (
            <p key={link}>
              <a href={link} className="break">Open link: {link}</a>
            </p>
          ))}
        </Section>
      ))}
    </>
  )
}

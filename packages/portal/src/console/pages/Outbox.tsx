/**
 * Outbox (admins): the mails Tuma kept instead of sending because no mail server is configured
 * (`TUMA_SMTP_URL`), newest first, each with its links — so a demo's invitations can be followed.
 */
import { api } from "../api.js"
import { Loading, Time, useLoad, useT } from "../ui.js"
import type { OutboxMailView } from "../views.js"

/** The links of a mail's text, to open or copy. */
const linksOf = (text: string): ReadonlyArray<string> => text.match(/https?:\/\/\S+/g) ?? []

/** The Outbox page. */
export function OutboxPage() {
  const t = useT()
  const mails = useLoad<ReadonlyArray<OutboxMailView>>(() => api("GET", "/outbox"), [])
  const rows = mails.data ?? []
  return (
    <>
      <h1>{t("Outbox")}</h1>
      <p>
        {t(
          "No mail server is configured (TUMA_SMTP_URL), so these mails were not sent: they are kept here for you to read or pass on. With a mail server, mails are sent and none is added here."
        )}
      </p>
      <Loading loaded={mails} />
      {mails.data !== undefined && rows.length === 0 && <p>{t("The outbox is empty.")}</p>}
      {rows.map((m) => (
        <section key={m.uid} aria-label={`${m.subject} — ${m.to}`} className="card">
          <h2>
            <span translate="no">{m.subject}</span> — {m.to}
          </h2>
          <p>
            {t("To")} <strong>{m.to}</strong>, <Time iso={m.created_at} />
          </p>
          <pre className="body" translate="no">{m.text}</pre>
          {linksOf(m.text).map((link) => (
            <p key={link}>
              <a href={link} className="break">{t("Open link: {link}", { link })}</a>
            </p>
          ))}
        </section>
      ))}
    </>
  )
}

/**
 * The inbox (two-way SMS): conversations per handset and number (latest first, unread counts), a
 * conversation in both directions with a reply box (the Send page's encoding and cost preview; the
 * reply goes from the number the handset wrote to), the account's numbers and keywords (read-only)
 * and the automatic STOP/START/HELP replies (owners change them, members read them).
 */
import type { AutoRepliesView } from "@tuma/http/portal/Api"
import { useState } from "react"
import { call, idempotencyKey } from "../api.js"
import { formatNumber } from "../format.js"
import { useI18n } from "../i18n.js"
import { Link } from "../router.js"
import { useIsOwner } from "../session.js"
import { Field, Loading, PageTitle, Status, Time, useAction, useLoad } from "../ui.js"
import { onSubmit, SubmitRow, Table } from "../widgets.js"
import { TextPreview } from "./Send.js"

const conversationPath = (handset: string, number: string) =>
  `/inbox/${encodeURIComponent(handset)}/${encodeURIComponent(number)}`

export function InboxPage() {
  const { t, lang } = useI18n()
  const loaded = useLoad(() => call((c) => c.portalInbox.inbox({ urlParams: { per_page: 100 } })), [])
  const data = loaded.data
  return (
    <>
      <PageTitle>{t("Inbox")}</PageTitle>
      <Loading loaded={loaded} />
      {data !== undefined && (
        <>
          <p role="status">{t("Unread messages: {n}", { n: formatNumber(data.unread, lang) })}</p>
          {data.data.length === 0
            ? <p>{t("No replies yet. Messages handsets send to your numbers appear here.")}</p>
            : (
              <ul className="conversations">
                {data.data.map((c) => (
                  <li key={`${c.handset} ${c.number}`} className={c.unread > 0 ? "card unread" : "card"}>
                    <Link to={conversationPath(c.handset, c.number)}>
                      <strong translate="no">{c.handset}</strong> → <span translate="no">{c.number}</span>
                    </Link>
                    {c.unread > 0 && (
                      <span className="badge">{t("{n} unread", { n: formatNumber(c.unread, lang) })}</span>
                    )}
                    <p className="body">{c.last_text}</p>
                    <Time iso={c.last_at} />
                  </li>
                ))}
              </ul>
            )}
        </>
      )}
      <Numbers />
      <AutoReplies />
    </>
  )
}

function Numbers() {
  const { t } = useI18n()
  const loaded = useLoad(() => call((c) => c.portalInbox.inboxNumbers()), [])
  return (
    <section className="card">
      <h2>{t("Your numbers")}</h2>
      <Loading loaded={loaded} />
      {loaded.data !== undefined && (loaded.data.data.length === 0
        ? <p>{t("No number yet: ask the operator to assign one.")}</p>
        : (
          <Table
            caption={t("Your numbers")}
            rows={loaded.data.data}
            rowKey={(n) => n.uid}
            columns={[
              [t("Number"), (n) => <span translate="no">{n.number}</span>],
              [t("Keyword"), (n) => n.keyword === null ? "—" : [n.keyword, ...n.aliases].join(", ")]
            ]}
          />
        ))}
    </section>
  )
}

const TEXTS = ["stop_en", "stop_sw", "start_en", "start_sw", "help_en", "help_sw"] as const
type TextKey = typeof TEXTS[number]

function AutoReplies() {
  const { t } = useI18n()
  const owner = useIsOwner()
  const loaded = useLoad(() => call((c) => c.portalInbox.inboxAutoReplies()), [])
  return (
    <section className="card">
      <h2>{t("Automatic replies")}</h2>
      <p className="hint">{t("Sent when a handset writes STOP, START or HELP. Empty: the default text.")}</p>
      <Loading loaded={loaded} />
      {loaded.data !== undefined && <AutoRepliesForm view={loaded.data.data} owner={owner} />}
    </section>
  )
}

function AutoRepliesForm(props: { readonly view: AutoRepliesView; readonly owner: boolean }) {
  const { t } = useI18n()
  const [texts, setTexts] = useState<Record<TextKey, string>>(() => ({
    stop_en: props.view.stop_en ?? "",
    stop_sw: props.view.stop_sw ?? "",
    start_en: props.view.start_en ?? "",
    start_sw: props.view.start_sw ?? "",
    help_en: props.view.help_en ?? "",
    help_sw: props.view.help_sw ?? ""
  }))
  const [saved, setSaved] = useState(false)
  const action = useAction()
  const label: Record<TextKey, string> = {
    stop_en: t("STOP reply (English)"),
    stop_sw: t("STOP reply (Kiswahili)"),
    start_en: t("START reply (English)"),
    start_sw: t("START reply (Kiswahili)"),
    help_en: t("HELP reply (English)"),
    help_sw: t("HELP reply (Kiswahili)")
  }
  const submit = onSubmit(action, async () => {
    setSaved(false)
    await call((c) => c.portalInbox.setInboxAutoReplies({ payload: texts }))
    setSaved(true)
  })
  return (
    <form onSubmit={submit}>
      {TEXTS.map((k) => (
        <Field key={k} label={label[k]}>
          {/* the text handsets receive, in its own language (not the page's): as written */}
          <textarea
            rows={2}
            translate="no"
            lang={k.endsWith("_en") ? "en" : "sw"}
            value={texts[k]}
            placeholder={props.view.defaults[k] ?? ""}
            readOnly={!props.owner}
            onChange={(e) => setTexts({ ...texts, [k]: e.currentTarget.value })}
          />
        </Field>
      ))}
      {props.owner
        ? <SubmitRow action={action} label={t("Save automatic replies")} />
        : <p className="hint">{t("Only an owner can change the automatic replies.")}</p>}
      {saved && <p role="status">{t("Saved.")}</p>}
    </form>
  )
}

export function ConversationPage(props: { readonly handset: string; readonly number: string }) {
  const { t, lang } = useI18n()
  const [tick, setTick] = useState(0)
  const loaded = useLoad(
    () => call((c) => c.portalInbox.inboxConversation({ urlParams: { handset: props.handset, number: props.number } })),
    [props.handset, props.number, tick]
  )
  const [body, setBody] = useState("")
  const action = useAction()
  const thread = loaded.data?.data
  const submit = onSubmit(action, async () => {
    if (thread === undefined) return
    await call((c) =>
      c.portalInbox.inboxReply({
        path: { uid: thread.reply_to },
        payload: { body },
        headers: { "idempotency-key": idempotencyKey() }
      })
    )
    setBody("")
    setTick((n) => n + 1)
  })
  return (
    <>
      <PageTitle>
        {t("Conversation with {handset}", { handset: props.handset })}
      </PageTitle>
      <p>
        <Link to="/inbox">{t("Back to the inbox")}</Link>
      </p>
      <Loading loaded={loaded} />
      {thread !== undefined && (
        <>
          <form onSubmit={submit} className="card">
            <p>{t("Reply from {number}", { number: thread.number })}</p>
            <Field label={t("Reply")}>
              <textarea required rows={3} value={body} onChange={(e) => setBody(e.currentTarget.value)} />
            </Field>
            <TextPreview body={body} recipient={props.handset} />
            <SubmitRow action={action} label={t("Send reply")} />
          </form>
          <ol className="thread" aria-label={t("Messages")}>
            {thread.messages.map((m) => (
              <li key={m.uid} className={m.direction === "in" ? "card in" : "card out"}>
                <p className="hint">
                  {m.direction === "in" ? t("Received") : t("Sent")} · <Time iso={m.at} />
                  {m.status !== null && (
                    <>
                      · <Status status={m.status} />
                    </>
                  )}
                  {m.command !== null && (
                    <>
                      · <strong>{m.command.toUpperCase()}</strong>
                    </>
                  )}
                  {!m.complete && <>· {t("Some parts are missing")}</>}
                </p>
                <p className="body">{m.text}</p>
              </li>
            ))}
          </ol>
          <p className="hint">{t("{n} messages", { n: formatNumber(thread.messages.length, lang) })}</p>
        </>
      )}
    </>
  )
}

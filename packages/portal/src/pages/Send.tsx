/**
 * Send one SMS (channel `web`). While typing: the encoding computed in the browser by
 * @tuma/domain's `analyzeBody` (the same function the server runs), replaced by the server's
 * preview (`POST /portal/api/preview`: its part sizing, the recipient's country, units and wallet)
 * as soon as that answers for the current text. After sending, the message's status is followed
 * until it is final.
 */
import { analyzeBody } from "@tuma/domain/encoding"
import { characterName } from "../characters.js"
import "@tuma/domain/unicodeNames" // the name table for analyzeBody's changes (no Node loader in the browser)
import type { Encoding } from "@tuma/domain/encoding"
import type { PreviewView } from "@tuma/http/portal/Api"
import { useEffect, useMemo, useState } from "react"
import { call, idempotencyKey } from "../api.js"
import { formatNumber } from "../format.js"
import { useI18n } from "../i18n.js"
import { Link } from "../router.js"
import { Field, PageTitle, Status, useAction, useLoad, useServerText } from "../ui.js"
import { Facts, onSubmit, SenderIdField, SubmitRow, Table, useSenderIdChoice } from "../widgets.js"
import { TemplatePicker } from "./Templates.js"

const FINAL = new Set(["delivered", "failed"])

export function EncodingPreview(
  props: { readonly encoding: Encoding; readonly text?: string | undefined; readonly label?: string }
) {
  const { t, lang } = useI18n()
  const say = useServerText()
  const e = props.encoding
  return (
    <section className="preview" aria-label={props.label ?? t("Encoding preview")} aria-live="polite">
      <Facts
        facts={[
          [t("Encoding"), e.final],
          [t("Segments"), formatNumber(e.segments, lang)],
          [t("Characters"), formatNumber(e.characters, lang)],
          [t("Characters per SMS"), formatNumber(e.characters_per_sms, lang)]
        ]}
      />
      {e.segments > 1 && (
        <p className="hint">
          {t(
            "A message longer than {per} characters is counted as several SMS: this one as {segments}. Each SMS costs one unit.",
            { per: formatNumber(e.characters_per_sms, lang), segments: formatNumber(e.segments, lang) }
          )}
        </p>
      )}
      {e.notice !== undefined && <p className="notice">{say(e.notice)}</p>}
      {e.changes.length > 0 && (
        <Table
          caption={t("Changed characters")}
          rows={e.changes}
          rowKey={(c) => c.character}
          columns={[
            [t("Character"), (c) => (
              <>
                <code>{c.character}</code> {String.fromCodePoint(parseInt(c.character.slice(2), 16))}
              </>
            )],
            [t("Name"), (c) => characterName(lang, t, c.character, c.name)],
            [t("Occurrences"), (c) => c.occurrences],
            [t("Replaced with"), (c) => c.replaced_with === "" ? t("(removed)") : <code>{c.replaced_with}</code>]
          ]}
        />
      )}
      {props.text !== undefined && e.converted && (
        <p>
          {t("Sent as:")} <q className="body">{props.text}</q>
        </p>
      )}
    </section>
  )
}

/** The server's preview of `body` for `recipient`, debounced. */
export const useServerPreview = (body: string, recipient: string) => {
  const [preview, setPreview] = useState<{ body: string; recipient: string; view: PreviewView } | undefined>()
  useEffect(() => {
    if (body === "") return
    let live = true
    const timer = setTimeout(() => {
      call((c) =>
        c.portalDashboard.preview({
          payload: recipient.trim() === "" ? { body } : { body, recipient: recipient.trim() }
        })
      ).then((r) => live && setPreview({ body, recipient, view: r.data }), () => {})
    }, 250)
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [body, recipient])
  return preview !== undefined && preview.body === body && preview.recipient === recipient ? preview.view : undefined
}

function Followed(props: { readonly uid: string }) {
  const { t } = useI18n()
  const [tick, setTick] = useState(0)
  const loaded = useLoad(() => call((c) => c.portalMessages.getMessage({ path: { uid: props.uid } })), [
    props.uid,
    tick
  ])
  const status = loaded.data?.data.message.status
  useEffect(() => {
    if (status !== undefined && FINAL.has(status)) return
    const timer = setTimeout(() => setTick((n) => n + 1), 700)
    return () => clearTimeout(timer)
  }, [status, tick])
  return (
    <div role="status" className="card">
      <p>
        {t("Message accepted.")} {t("Status")}: {status === undefined ? "…" : <Status status={status} />}
      </p>
      <Link to={`/messages/${props.uid}`}>{t("Open the message")}</Link>
    </div>
  )
}

/** The cost of a text from the server's preview: units, the recipient's wallet and whether it is enough. */
export function CostPreview(props: { readonly server: PreviewView | undefined }) {
  const { t, lang } = useI18n()
  const say = useServerText()
  const server = props.server
  return (
    <>
      {server !== undefined && server.country !== null && (
        <p className={server.sufficient === false ? "warn" : ""} aria-label={t("Cost")}>
          {t(
            server.units === 1
              ? "Cost: 1 unit from the {country} wallet (balance {balance})."
              : "Cost: {units} units from the {country} wallet (balance {balance}).",
            {
              units: formatNumber(server.units, lang),
              country: server.country,
              balance: server.balance === null ? "—" : formatNumber(server.balance, lang)
            }
          )}
          {server.sufficient === false && ` ${t("The balance is not enough.")}`}
        </p>
      )}
      {server !== undefined && server.country === null && (
        <p aria-label={t("Cost")}>
          {t(server.units === 1 ? "Cost: 1 unit per recipient." : "Cost: {units} units per recipient.", {
            units: formatNumber(server.units, lang)
          })}
          {server.recipient_error !== null && ` ${say(server.recipient_error)}`}
        </p>
      )}
    </>
  )
}

/** What a text will be and cost: the encoding (computed here, then the server's) and the server's cost. */
export function TextPreview(props: { readonly body: string; readonly recipient: string }) {
  const local = useMemo(() => (props.body === "" ? undefined : analyzeBody(props.body)), [props.body])
  const server = useServerPreview(props.body, props.recipient)
  const encoding = server?.encoding ?? local?.encoding
  return (
    <>
      {encoding !== undefined && <EncodingPreview encoding={encoding} text={server?.text ?? local?.text} />}
      <CostPreview server={server} />
    </>
  )
}

export function SendPage() {
  const { t } = useI18n()
  const senderIds = useSenderIdChoice()
  const [recipient, setRecipient] = useState("")
  const [body, setBody] = useState("")
  const [sent, setSent] = useState<string | undefined>()
  const action = useAction()
  const submit = onSubmit(action, async () => {
    setSent(undefined)
    const r = await call((c) =>
      c.portalDashboard.sendSms({
        payload: { recipient, sender_id: senderIds.chosen, body },
        headers: { "idempotency-key": idempotencyKey() }
      })
    )
    setSent(r.data.uid)
    setBody("")
  })
  return (
    <>
      <PageTitle>{t("Send SMS")}</PageTitle>
      <form onSubmit={submit} className="card">
        <Field label={t("Recipient")} hint={t("e.g. 0712 345 678, or +255712345678 for another country")}>
          <input
            type="tel"
            required
            value={recipient}
            onChange={(e) => setRecipient(e.currentTarget.value)}
            autoComplete="off"
          />
        </Field>
        <SenderIdField choice={senderIds} />
        {senderIds.loaded && senderIds.usable.length === 0 && (
          <p>
            {t("No approved sender ID yet.")} <Link to="/sender-ids">{t("Sender IDs")}</Link>
          </p>
        )}
        <TemplatePicker onPick={setBody} />
        <Field label={t("Message")}>
          <textarea required rows={5} value={body} onChange={(e) => setBody(e.currentTarget.value)} />
        </Field>
        <TextPreview body={body} recipient={recipient} />
        <SubmitRow action={action} label={t("Send")} />
      </form>
      {sent !== undefined && <Followed uid={sent} />}
    </>
  )
}

/**
 * Campaigns: recipients pasted or from a CSV (its columns become tags), the template, a preview
 * from the server (personalised texts for the first recipients, price per country and the balance
 * check) that must be current before "Send campaign" is enabled, scheduling in the user's time zone,
 * and the history with delivery figures. A campaign's page: where it is (scheduled, sending,
 * finished, cancelled), why fewer recipients were accepted than given, its recipients with a status
 * filter and CSV export, and — while it is scheduled — cancelling it (units back to the balance).
 */
import type { CampaignPreview } from "@tuma/http/portal/Api"
import { useEffect, useState } from "react"
import { call, idempotencyKey } from "../api.js"
import { formatNumber, zonedLocalToIso } from "../format.js"
import { useI18n } from "../i18n.js"
import { Link, useQuery } from "../router.js"
import { useZone } from "../session.js"
import { ErrorBox, Field, PageTitle, Time, useAction, useLoad } from "../ui.js"
import {
  Check,
  DetailPage,
  Facts,
  LoadedTable,
  onSubmit,
  RefusedRecipients,
  SenderIdField,
  SubmitRow,
  useSenderIdChoice
} from "../widgets.js"
import type { Recipient } from "./CampaignRecipients.js"
import { RecipientFields, useCampaignRecipients } from "./CampaignRecipients.js"
import { MessageList } from "./Messages.js"
import { EncodingPreview } from "./Send.js"
import { TemplatePicker } from "./Templates.js"

function Figures(
  props: { readonly d: { readonly delivered: number; readonly failed: number; readonly total: number } }
) {
  const { t } = useI18n()
  return <span>{t("{delivered} delivered, {failed} failed of {total}", props.d)}</span>
}

/** The stage of a campaign (domain `campaignStageOf`), as its owner reads it. */
type Stage = "scheduled" | "sending" | "finished" | "cancelled"

const stageNames: Record<Stage, string> = {
  scheduled: "Scheduled",
  sending: "Sending",
  finished: "Finished",
  cancelled: "Cancelled"
}

function StageBadge(props: { readonly stage: Stage }) {
  const { t } = useI18n()
  return <span className={`status status-stage-${props.stage}`}>{t(stageNames[props.stage])}</span>
}

function History(props: { readonly version: number }) {
  const { t } = useI18n()
  const loaded = useLoad(() => call((c) => c.portalCampaigns.listCampaigns({ urlParams: { per_page: 50 } })), [
    props.version
  ])
  return (
    <section aria-labelledby="history">
      <h2 id="history">{t("History")}</h2>
      <LoadedTable
        loaded={loaded}
        empty={t("No campaigns yet.")}
        rowKey={(c) => c.uid}
        columns={[
          [
            t("Name"),
            (c) => (
              <Link to={`/campaigns/${c.uid}`}>
                {c.name === "" ? t("(no name)") : <span translate="no">{c.name}</span>}
              </Link>
            )
          ],
          [t("Sender ID"), (c) => c.sender_id],
          [t("Status"), (c) => <StageBadge stage={c.stage} />],
          [t("Recipients"), (c) => c.recipient_count],
          [t("Units"), (c) => c.units],
          [t("Delivery"), (c) => <Figures d={c.delivery} />],
          [t("Created"), (c) => <Time iso={c.created_at} />],
          [t("Scheduled for"), (c) => <Time iso={c.scheduled_at} />]
        ]}
      />
    </section>
  )
}

function PriceTable(props: { readonly preview: CampaignPreview }) {
  const { t, lang } = useI18n()
  const p = props.preview
  return (
    <div className="table-wrap">
      <table>
        <caption>{t("Price per country")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("Country")}</th>
            <th scope="col">{t("Recipients")}</th>
            <th scope="col">{t("Units")}</th>
            <th scope="col">{t("Balance")}</th>
            <th scope="col">{t("Enough")}</th>
          </tr>
        </thead>
        <tbody>
          {p.countries.map((c) => (
            <tr key={c.country}>
              <td>{c.country}</td>
              <td>{formatNumber(c.recipients, lang)}</td>
              <td>{formatNumber(c.units, lang)}</td>
              <td>{formatNumber(c.balance, lang)}</td>
              <td>{c.sufficient ? t("Yes") : t("No")}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">{t("Total")}</th>
            <td>{formatNumber(p.sendable, lang)}</td>
            <td>{formatNumber(p.units, lang)}</td>
            <td />
            <td>{p.sufficient ? t("Yes") : t("No")}</td>
          </tr>
        </tfoot>
      </table>
    </div>
  )
}

export function CampaignsPage() {
  const { t } = useI18n()
  const zone = useZone()
  const senderIds = useSenderIdChoice()
  const [name, setName] = useState("")
  const source = useCampaignRecipients()
  const [message, setMessage] = useState("")
  const [schedule, setSchedule] = useState(false)
  const [sendAt, setSendAt] = useState("")
  const [preview, setPreview] = useState<{ key: string; view: CampaignPreview }>()
  const [done, setDone] = useState<string>()
  const [version, setVersion] = useState(0)
  const action = useAction()
  const chosen = senderIds.chosen
  const recipients: ReadonlyArray<Recipient> = source.recipients
  const copyOf = useQuery().get("copy") ?? ""
  const [copied, setCopied] = useState<string>()
  useEffect(() => {
    if (copyOf === "") return
    void action.run(async () => {
      const r = await call((c) => c.portalCampaigns.copyCampaign({ path: { campaign_uid: copyOf } }))
      source.reset()
      setName(r.data.name)
      setMessage(r.data.message)
      source.setPasted(r.data.recipients.join("\n"))
      senderIds.setSenderId(r.data.sender_id)
      setCopied(r.data.name)
    })
  }, [copyOf])
  const request = () => ({
    recipients: [...recipients],
    message,
    sender_id: chosen,
    ...(name.trim() !== "" ? { campaign_name: name.trim() } : {}),
    ...(schedule && sendAt !== "" ? { scheduled_at: zonedLocalToIso(sendAt, zone) } : {})
  })
  const key = JSON.stringify(request())
  const current = preview !== undefined && preview.key === key ? preview.view : undefined
  const runPreview = () =>
    action.run(async () => {
      const k = key
      const r = await call((c) => c.portalCampaigns.previewCampaign({ payload: request() }))
      setPreview({ key: k, view: r.data })
    })
  const submit = onSubmit(action, async () => {
    const r = await call((c) =>
      c.portalCampaigns.createCampaign({ payload: request(), headers: { "idempotency-key": idempotencyKey() } })
    )
    setDone(r.data.uid)
    setPreview(undefined)
    // a clean form: sending the same campaign twice takes filling it again
    setName("")
    source.reset()
    setCopied(undefined)
    setMessage("")
    setSchedule(false)
    setSendAt("")
    setVersion((v) => v + 1)
  })
  return (
    <>
      <PageTitle>{t("Campaigns")}</PageTitle>
      <form onSubmit={submit} className="card">
        <h2>{t("New campaign")}</h2>
        {copied !== undefined && (
          <p role="status">{t("A copy of {name}: check it, then preview and send.", { name: copied })}</p>
        )}
        <Field label={t("Campaign name")}>
          <input value={name} maxLength={120} onChange={(e) => setName(e.currentTarget.value)} />
        </Field>
        <SenderIdField choice={senderIds} />
        <RecipientFields source={source} />
        <TemplatePicker onPick={setMessage} />
        <Field
          label={t("Message")}
          hint={t("Tags like {name} are filled per recipient; {= amount - paid } computes.")}
        >
          <textarea required rows={4} value={message} onChange={(e) => setMessage(e.currentTarget.value)} />
        </Field>
        <Check checked={schedule} onChange={setSchedule}>{t("Schedule for later")}</Check>
        {schedule && (
          <Field label={t("Send at")} hint={t("In your time zone ({zone}).", { zone })}>
            <input type="datetime-local" required value={sendAt} onChange={(e) => setSendAt(e.currentTarget.value)} />
          </Field>
        )}
        <button
          type="button"
          onClick={() => void runPreview()}
          disabled={action.busy || recipients.length === 0 || source.blocked}
        >
          {t("Preview price")}
        </button>
        {current !== undefined && (
          <section aria-label={t("Campaign preview")} className="preview">
            <p>
              {t("{sendable} of {recipients} recipients can be sent, {units} units.", {
                sendable: current.sendable,
                recipients: current.recipients,
                units: current.units
              })}
            </p>
            <PriceTable preview={current} />
            {!current.sufficient && <p className="warn" role="alert">{t("The balance is not enough.")}</p>}
            {current.samples.map((s, i) => (
              <div key={i} className="sample">
                <h3>{t("Sample for {recipient}", { recipient: s.recipient })}</h3>
                <p className="body" translate="no">{s.text}</p>
                <EncodingPreview
                  encoding={s.encoding}
                  label={t("Encoding of the sample for {recipient}", { recipient: s.recipient })}
                />
              </div>
            ))}
            <RefusedRecipients failures={current.failures} />
          </section>
        )}
        <SubmitRow
          action={action}
          disabled={current === undefined || !current.sufficient || source.blocked}
          label={schedule ? t("Schedule campaign") : t("Send campaign")}
        />
        {current === undefined && recipients.length > 0 && <p className="hint">{t("Preview the price first.")}</p>}
      </form>
      {done !== undefined && (
        <p role="status">
          {t("Campaign accepted.")} <Link to={`/campaigns/${done}`}>{t("Open the campaign")}</Link>
        </p>
      )}
      <History version={version} />
    </>
  )
}

interface Cancelled {
  readonly messages: number
  readonly units: number
}

function CancelCampaign(props: { readonly uid: string; readonly onCancelled: (c: Cancelled) => void }) {
  const { t } = useI18n()
  const action = useAction()
  const cancel = () =>
    action.run(async () => {
      const r = await call((c) => c.portalCampaigns.cancelCampaign({ path: { campaign_uid: props.uid } }))
      props.onCancelled(r.data)
    })
  return (
    <div className="card">
      <p>
        {t(
          "This campaign has not started. You can cancel it until its time: nothing is sent and its units go back to your balance."
        )}
      </p>
      <button
        type="button"
        className="danger"
        disabled={action.busy}
        onClick={() => {
          if (window.confirm(t("Cancel this campaign? Its messages will not be sent."))) void cancel()
        }}
      >
        {t("Cancel campaign")}
      </button>
      <ErrorBox error={action.error} />
    </div>
  )
}

export function CampaignPage(props: { readonly uid: string }) {
  const { t } = useI18n()
  const [version, setVersion] = useState(0)
  const [cancelled, setCancelled] = useState<Cancelled>()
  const loaded = useLoad(() => call((c) => c.portalCampaigns.getCampaign({ path: { campaign_uid: props.uid } })), [
    props.uid,
    version
  ])
  return (
    <DetailPage title={t("Campaign")} back={["/campaigns", t("Back to campaigns")]} loaded={loaded}>
      {(c) => (
        <>
          <h2 className="body" translate="no">{c.name}</h2>
          <Facts
            className="facts card"
            facts={[
              [t("Sender ID"), c.sender_id],
              [t("Status"), <StageBadge stage={c.stage} />],
              [
                t("Recipients"),
                c.failed_count > 0
                  ? t("{accepted} of {given} accepted; {refused} refused (listed below)", {
                    accepted: c.queued_count,
                    given: c.recipient_count,
                    refused: c.failed_count
                  })
                  : String(c.recipient_count)
              ],
              [t("Units"), t("{units} (one unit per SMS part, per recipient)", { units: c.units })],
              [t("Delivery"), <Figures d={c.delivery} />],
              [t("Scheduled for"), <Time iso={c.scheduled_at} />]
            ]}
          />
          {cancelled !== undefined && (
            <p role="status" className="card">
              {t("Cancelled: {messages} messages will not be sent; {units} units are back in your balance.", {
                messages: cancelled.messages,
                units: cancelled.units
              })}
            </p>
          )}
          {c.stage === "scheduled" && (
            <CancelCampaign
              uid={c.uid}
              onCancelled={(r) => {
                setCancelled(r)
                setVersion((v) => v + 1)
              }}
            />
          )}
          <p>
            <Link to={`/campaigns?copy=${encodeURIComponent(c.uid)}`}>{t("Duplicate campaign")}</Link>
          </p>
          <RefusedRecipients failures={c.failures} />
          <section aria-labelledby="campaign-recipients">
            <h2 id="campaign-recipients">{t("Recipients")}</h2>
            <MessageList campaignUid={c.uid} />
          </section>
        </>
      )}
    </DetailPage>
  )
}

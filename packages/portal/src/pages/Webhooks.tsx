/** Webhook endpoints per API key: create (secret shown once), regenerate, re-enable, deliveries, test event. */
import type { WebhookEndpointView } from "@tuma/http/portal/Api"
import { useState } from "react"
import { call } from "../api.js"
import { useI18n } from "../i18n.js"
import { useIsOwner } from "../session.js"
import { ErrorBox, Field, Loading, PageTitle, ShownOnce, Status, Time, useAction, useLoad } from "../ui.js"
import { AttemptLog, LoadedTable, onSubmit, SubmitRow } from "../widgets.js"

/** What the receiver answered to a test event. */
interface TestAnswer {
  readonly ok: boolean
  readonly response_status: number | null
  readonly latency_ms: number
  readonly error: string | null
}

function Deliveries(props: { readonly uid: string; readonly version: number }) {
  const { t } = useI18n()
  const loaded = useLoad(
    () =>
      call((c) => c.portalKeys.listWebhookDeliveries({ path: { webhook_uid: props.uid }, urlParams: { limit: 20 } })),
    [props.uid, props.version]
  )
  return (
    <LoadedTable
      loaded={loaded}
      empty={t("No deliveries yet.")}
      caption={t("Recent deliveries")}
      rowKey={(d) => d.uid}
      columns={[
        [t("Event"), (d) => d.event === "webhook.test" ? t("Test event") : <span translate="no">{d.event}</span>],
        [t("Recipient"), (d) => d.recipient === "" ? "—" : d.recipient],
        [t("Status"), (d) => <Status status={d.status} />],
        [t("Attempts"), (d) => (
          <details>
            <summary>{d.attempts}</summary>
            <AttemptLog attempts={d.attempt_log} />
          </details>
        )],
        [t("Last answer"), (d) => d.last_status ?? d.last_error ?? ""],
        [t("Completed"), (d) => <Time iso={d.completed_at} />]
      ]}
    />
  )
}

function Endpoint(
  props: { readonly endpoint: WebhookEndpointView; readonly keyName: string; readonly onChange: () => void }
) {
  const { t } = useI18n()
  const owner = useIsOwner()
  const e = props.endpoint
  const [secret, setSecret] = useState<string>()
  // the answer to the test, said in the language of the moment it is read
  const [test, setTest] = useState<TestAnswer>()
  const [version, setVersion] = useState(0)
  const action = useAction()
  const regenerate = () =>
    action.run(async () => {
      const r = await call((c) => c.portalKeys.regenerateWebhookSecret({ path: { webhook_uid: e.uid } }))
      setSecret(r.data.secret)
    })
  const toggle = (enable: boolean) =>
    action.run(async () => {
      await call((c) =>
        enable
          ? c.portalKeys.enableWebhook({ path: { webhook_uid: e.uid } })
          : c.portalKeys.disableWebhook({ path: { webhook_uid: e.uid } })
      )
      props.onChange()
    })
  const sendTest = () =>
    action.run(async () => {
      const r = await call((c) => c.portalKeys.testWebhook({ path: { webhook_uid: e.uid } }))
      setTest(r.data)
      setVersion((v) => v + 1)
    })
  return (
    <article className="card" aria-label={e.url}>
      <h3 className="body">{e.url}</h3>
      <p>
        {t("API key")}: <span translate="no">{props.keyName}</span> ·{" "}
        <Status status={e.enabled ? "enabled" : "disabled"} />
        {" · "}
        {t("Consecutive failures")}: {e.consecutive_failures}
        {!e.enabled && e.disabled_reason !== null && (
          <span>
            · {e.disabled_reason} (<Time iso={e.disabled_at} />)
          </span>
        )}
      </p>
      {owner && (
        <div className="actions">
          <button type="button" disabled={action.busy} onClick={() => void regenerate()}>
            {t("Regenerate secret")}
          </button>
          {e.enabled
            ? <button type="button" disabled={action.busy} onClick={() => void toggle(false)}>{t("Disable")}</button>
            : <button type="button" disabled={action.busy} onClick={() => void toggle(true)}>{t("Re-enable")}</button>}
          <button type="button" disabled={action.busy} onClick={() => void sendTest()}>{t("Send test event")}</button>
        </div>
      )}
      <ErrorBox error={action.error} />
      {secret !== undefined && <ShownOnce label={t("Webhook secret")} value={secret} />}
      {test !== undefined && (
        <p role="status">
          {test.ok
            ? t("Test event delivered: HTTP {status} in {ms} ms.", {
              status: test.response_status ?? "",
              ms: test.latency_ms
            })
            : t("Test event failed: {error}", { error: test.error ?? `HTTP ${test.response_status ?? "?"}` })}
        </p>
      )}
      <Deliveries uid={e.uid} version={version} />
    </article>
  )
}

export function WebhooksPage() {
  const { t } = useI18n()
  const owner = useIsOwner()
  const [version, setVersion] = useState(0)
  const hooks = useLoad(() => call((c) => c.portalKeys.listWebhooks()), [version])
  const keys = useLoad(() => call((c) => c.portalKeys.listApiKeys()), [])
  const active = (keys.data?.data ?? []).filter((k) => k.status === "active")
  const [keyUid, setKeyUid] = useState("")
  const [url, setUrl] = useState("")
  const [secret, setSecret] = useState<string>()
  const action = useAction()
  const chosen = keyUid !== "" ? keyUid : active[0]?.uid ?? ""
  const create = onSubmit(action, async () => {
    const r = await call((c) => c.portalKeys.createWebhook({ payload: { api_key_uid: chosen, url } }))
    setSecret(r.data.secret)
    setUrl("")
    setVersion((v) => v + 1)
  })
  const keyName = (uid: string) => {
    const k = keys.data?.data.find((x) => x.uid === uid)
    return k === undefined ? uid : `${k.name} (${k.prefix}…)`
  }
  return (
    <>
      <PageTitle>{t("Webhooks")}</PageTitle>
      <p>
        {t(
          "Delivery reports of the messages sent with a key are posted to that key's endpoint, signed with its secret."
        )}
      </p>
      {owner && (
        <form onSubmit={create} className="card">
          <h2>{t("New endpoint")}</h2>
          <Field label={t("API key")}>
            <select value={chosen} onChange={(e) => setKeyUid(e.currentTarget.value)} required>
              {active.map((k) => <option key={k.uid} value={k.uid} translate="no">{k.name} ({k.prefix}…)</option>)}
            </select>
          </Field>
          <Field label={t("URL")} hint="https://…">
            <input type="url" required value={url} onChange={(e) => setUrl(e.currentTarget.value)} />
          </Field>
          <SubmitRow action={action} disabled={chosen === ""} label={t("Create webhook")} />
          {secret !== undefined && <ShownOnce label={t("Webhook secret")} value={secret} />}
        </form>
      )}
      <Loading loaded={hooks} />
      {hooks.data !== undefined && hooks.data.data.length === 0 && <p>{t("No endpoints yet.")}</p>}
      {hooks.data?.data.map((e) => (
        <Endpoint
          key={e.uid}
          endpoint={e}
          keyName={keyName(e.api_key_uid)}
          onChange={() => setVersion((v) => v + 1)}
        />
      ))}
    </>
  )
}

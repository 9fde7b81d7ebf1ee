/** API keys: list, create (live or sandbox, name, scopes, IP allow-list, expiry; the key shown once), revoke. */
import { useState } from "react"
import { call } from "../api.js"
import { zonedLocalToIso } from "../format.js"
import { useI18n } from "../i18n.js"
import { useIsOwner, useZone } from "../session.js"
import { Field, PageTitle, ShownOnce, Status, Time, useAction, useLoad } from "../ui.js"
import { LoadedTable, onSubmit, SubmitRow } from "../widgets.js"

/** The scopes a key may hold (core's Admin.API_KEY_SCOPES). */
const SCOPES = ["sms:read", "sms:send", "sender-ids:read", "sender-ids:write", "profile:read", "sms:inbound"] as const

export function ApiKeysPage() {
  const { t } = useI18n()
  const owner = useIsOwner()
  const zone = useZone()
  const [version, setVersion] = useState(0)
  const keys = useLoad(() => call((c) => c.portalKeys.listApiKeys()), [version])
  const [name, setName] = useState("")
  const [mode, setMode] = useState<"live" | "test">("live")
  const [scopes, setScopes] = useState<ReadonlyArray<string>>(SCOPES)
  const [ips, setIps] = useState("")
  const [expires, setExpires] = useState("")
  const [created, setCreated] = useState<string>()
  const action = useAction()
  const create = onSubmit(action, async () => {
    setCreated(undefined)
    const allowed = ips.split(/[\s,]+/).map((s) => s.trim()).filter((s) => s !== "")
    const r = await call((c) =>
      c.portalKeys.createApiKey({
        payload: {
          name,
          mode,
          scopes: [...scopes],
          ...(allowed.length > 0 ? { allowed_ips: allowed } : {}),
          ...(expires !== "" ? { expires_at: zonedLocalToIso(`${expires}T23:59`, zone) } : {})
        }
      })
    )
    setCreated(r.data.key)
    setName("")
    setVersion((v) => v + 1)
  })
  const revoke = (uid: string) =>
    action.run(async () => {
      await call((c) => c.portalKeys.revokeApiKey({ path: { key_uid: uid } }))
      setVersion((v) => v + 1)
    })
  return (
    <>
      <PageTitle>{t("API keys")}</PageTitle>
      {owner
        ? (
          <form onSubmit={create} className="card">
            <h2>{t("New key")}</h2>
            <Field label={t("Key name")}>
              <input required value={name} onChange={(e) => setName(e.currentTarget.value)} />
            </Field>
            <fieldset>
              <legend>{t("Mode")}</legend>
              <label className="check">
                <input type="radio" name="mode" checked={mode === "live"} onChange={() => setMode("live")} />
                {t("Live (sends and charges)")}
              </label>
              <label className="check">
                <input type="radio" name="mode" checked={mode === "test"} onChange={() => setMode("test")} />
                {t("Sandbox (nothing is sent)")}
              </label>
            </fieldset>
            <fieldset>
              <legend>{t("Scopes")}</legend>
              {SCOPES.map((s) => (
                <label key={s} className="check">
                  <input
                    type="checkbox"
                    checked={scopes.includes(s)}
                    onChange={(e) =>
                      setScopes(e.currentTarget.checked ? [...scopes, s] : scopes.filter((x) => x !== s))}
                  />
                  {s}
                </label>
              ))}
            </fieldset>
            <Field label={t("Allowed IP addresses")} hint={t("IPs or CIDRs, separated by commas; empty: any address.")}>
              <input value={ips} onChange={(e) => setIps(e.currentTarget.value)} />
            </Field>
            <Field label={t("Expires on")} hint={t("Empty: never.")}>
              <input type="date" value={expires} onChange={(e) => setExpires(e.currentTarget.value)} />
            </Field>
            <SubmitRow action={action} label={t("Create API key")} />
            {created !== undefined && <ShownOnce label={t("New API key")} value={created} />}
          </form>
        )
        : <p className="card">{t("Only owners of the account create and revoke API keys.")}</p>}
      <LoadedTable
        loaded={keys}
        caption={t("Keys")}
        rowKey={(k) => k.uid}
        columns={[
          [t("Name"), (k) => <span translate="no">{k.name}</span>],
          [t("Key"), (k) => <code>{k.prefix}…</code>],
          [t("Mode"), (k) => k.mode === "live" ? t("Live") : t("Sandbox")],
          [t("Status"), (k) => <Status status={k.status} />],
          [t("Scopes"), (k) => k.scopes.join(", ")],
          [t("Allowed IP addresses"), (k) => k.allowed_ips.length === 0 ? t("Any") : k.allowed_ips.join(", ")],
          [t("Expires"), (k) => <Time iso={k.expires_at} />],
          [t("Last used"), (k) => <Time iso={k.last_used_at} />],
          [t("Created"), (k) => <Time iso={k.created_at} />],
          owner && [t("Actions"), (k) =>
            k.status === "active" && (
              <button
                type="button"
                aria-label={t("Revoke {name}", { name: k.name })}
                onClick={() => {
                  if (window.confirm(t("Revoke the key {name}? Requests with it will fail.", { name: k.name }))) {
                    void revoke(k.uid)
                  }
                }}
              >
                {t("Revoke")}
              </button>
            )]
        ]}
      />
    </>
  )
}

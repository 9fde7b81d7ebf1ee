/**
 * The owner's edit form of their SMPP credentials (`PATCH /portal/api/smpp-accounts/{uid}`): the
 * addresses a bind may come from, prefilled. The throughput and the number of binds are shown
 * read-only: they are the provider's to set (docs/decisions.md "SMPP limits are the operator's").
 * What the server refuses is said under the field, in the reader's language; refused, nothing changes.
 */
import type { PortalSmppAccount } from "@tuma/http/portal/Api"
import { useState } from "react"
import { call } from "../api.js"
import { useI18n } from "../i18n.js"
import { fieldErrors } from "../shared/fields.js"
import { ErrorBox, Field, useAction } from "../ui.js"
import { Facts, onSubmit } from "../widgets.js"

/** A translated sentence around a system ID, the ID shown as written (`translate="no"`). */
export function WithSystemId(props: { readonly text: string; readonly systemId: string }) {
  const [before, after] = props.text.split("{systemId}")
  return (
    <>
      {before}
      <span translate="no">{props.systemId}</span>
      {after}
    </>
  )
}

/** The status line once the settings of `systemId` are saved. */
export function SavedLine(props: { readonly systemId: string }) {
  const { t } = useI18n()
  return (
    <p role="status">
      <WithSystemId text={t("The settings of {systemId} are saved.")} systemId={props.systemId} />
    </p>
  )
}

/** The addresses typed in the field: separated by commas, spaces or lines. */
const addresses = (text: string) => text.split(/[\s,]+/).filter((s) => s !== "")

/** The edit form of one set of credentials; `onDone` with the saved credentials, or null on cancel. */
export function EditCredentials(props: {
  readonly account: PortalSmppAccount
  readonly onDone: (saved: PortalSmppAccount | null) => void
}) {
  const { t } = useI18n()
  const a = props.account
  const [ips, setIps] = useState(a.allowed_ips.join(", "))
  const action = useAction()
  const errors = fieldErrors(action.error, "allowed_ips", t)
  const submit = onSubmit(action, async () => {
    const r = await call((c) =>
      c.portalSmpp.changeSmppAccount({ path: { smpp_account_uid: a.uid }, payload: { allowed_ips: addresses(ips) } })
    )
    props.onDone(r.data)
  })
  const titleId = `smpp-edit-${a.uid}`
  return (
    <form onSubmit={submit} className="card" aria-labelledby={titleId} noValidate>
      <h2 id={titleId}>
        <WithSystemId text={t("Settings of {systemId}")} systemId={a.system_id} />
      </h2>
      {errors.length > 0 && <p role="alert" className="error">{t("Nothing was changed: correct the field below.")}</p>}
      <Field
        label={t("Allowed IP addresses")}
        hint={t(
          "The internet addresses your system connects from, separated by commas: one address like 196.41.2.10, or a range like 196.41.2.0/24. Empty: any address."
        )}
        errors={errors}
      >
        <input autoFocus value={ips} onChange={(e) => setIps(e.currentTarget.value)} />
      </Field>
      <p className="hint">
        {t("From now on, a connection from another address is refused; connections already open stay open.")}
      </p>
      <h3>{t("Set by your provider")}</h3>
      <Facts
        facts={[
          [
            t("Throughput"),
            t("{rate} parts per second, bursts up to {burst}", { rate: a.throughput.rate, burst: a.throughput.burst })
          ],
          [t("Connections at the same time"), a.max_binds]
        ]}
      />
      <p className="hint">{t("To change these, ask your provider.")}</p>
      {errors.length === 0 && <ErrorBox error={action.error} />}
      <button type="submit" disabled={action.busy}>{t("Save changes")}</button>
      <button type="button" className="link" onClick={() => props.onDone(null)}>{t("Cancel")}</button>
    </form>
  )
}

/**
 * The console's edit form of SMPP credentials (`PATCH /console/api/smpp-accounts/{uid}`): the
 * throughput and burst, the number of binds and the allowed addresses, prefilled with the present
 * values. What the server refuses is said under the field it concerns, in the operator's language;
 * refused, nothing is changed. Shown to operators with `accounts.manage`.
 */
import { fieldErrors } from "../../shared/fields.js"
import { api } from "../api.js"
import { Input, useAction, useForm } from "../forms.js"
import { ErrorBox, Section, useT } from "../ui.js"
import type { SmppAccountView } from "../views.js"

/** The request fields of the form, each with the paths of its errors. */
const FIELDS = ["throughput.rate", "throughput.burst", "max_binds", "allowed_ips"] as const

/** Whether a field of the form shows the error (else it is said in the form's alert). */
const placed = (path: string) => FIELDS.some((f) => path === f || path.startsWith(`${f}.`))

/** The edit form of one account's credentials; `onDone` with the saved credentials, or null on cancel. */
export function EditCredentials(props: {
  readonly account: SmppAccountView
  readonly onDone: (saved: SmppAccountView | null) => void
}) {
  const t = useT()
  const a = props.account
  const form = useForm({
    rate: String(a.throughput.rate),
    burst: String(a.throughput.burst),
    max_binds: String(a.max_binds),
    allowed_ips: a.allowed_ips.join(", ")
  })
  const action = useAction()
  const e = action.error
  const byField = Object.keys(e?.errors ?? {}).length > 0 && Object.keys(e?.errors ?? {}).every(placed)
  const title = t("Edit {systemId}", { systemId: a.system_id })
  return (
    <Section title={title}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault()
          void action.run(async () => {
            const saved = await api<SmppAccountView>("PATCH", `/smpp-accounts/${a.uid}`, form.values)
            props.onDone(saved)
          })
        }}
      >
        {byField && <p role="alert" className="error">{t("Nothing was changed: correct the fields marked below.")}</p>}
        <Input
          label={t("Throughput (parts per second)")}
          inputMode="numeric"
          autoFocus
          errors={fieldErrors(e, "throughput.rate", t)}
          {...form.bind("rate")}
        />
        <Input
          label={t("Burst")}
          hint={t("Parts sent at once before the throughput applies; empty: the throughput.")}
          inputMode="numeric"
          errors={fieldErrors(e, "throughput.burst", t)}
          {...form.bind("burst")}
        />
        <Input
          label={t("Max binds")}
          hint={t("Connections open at the same time, 1 to 100.")}
          inputMode="numeric"
          errors={fieldErrors(e, "max_binds", t)}
          {...form.bind("max_binds")}
        />
        <Input
          label={t("Allowed IP addresses")}
          hint={t("Separated by commas; empty: any address.")}
          errors={fieldErrors(e, "allowed_ips", t)}
          {...form.bind("allowed_ips")}
        />
        <p className="hint">
          {t("New binds get these settings; binds already up keep theirs until they bind again.")}
        </p>
        <button type="submit" disabled={action.busy}>{t("Save changes")}</button>
        <button type="button" className="link" onClick={() => props.onDone(null)}>{t("Cancel")}</button>
        {!byField && <ErrorBox error={e} />}
      </form>
    </Section>
  )
}

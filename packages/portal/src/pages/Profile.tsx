/** The user's name, time zone and password; the account's profile. */
import { useEffect, useState } from "react"
import type { FormEvent } from "react"
import { call } from "../api.js"
import { DEFAULT_TIME_ZONE } from "../format.js"
import { useI18n } from "../i18n.js"
import { useSession } from "../session.js"
import { ErrorBox, Field, Loading, PageTitle, Time, useAction, useLoad } from "../ui.js"

const zones = (): ReadonlyArray<string> => {
  try {
    return (Intl as unknown as { supportedValuesOf(k: string): Array<string> }).supportedValuesOf("timeZone")
  } catch {
    return [DEFAULT_TIME_ZONE, "UTC"]
  }
}

export function ProfilePage() {
  const { t } = useI18n()
  const { session, setSession } = useSession()
  const profile = useLoad(() => call((c) => c.portalAccount.profile()), [])
  const [name, setName] = useState(session.user.name)
  const [zone, setZone] = useState(session.user.time_zone)
  const [saved, setSaved] = useState(false)
  const [current, setCurrent] = useState("")
  const [next, setNext] = useState("")
  const [changed, setChanged] = useState(false)
  const save = useAction()
  const password = useAction()
  useEffect(() => setSaved(false), [name, zone])
  const submit = (e: FormEvent) => {
    e.preventDefault()
    void save.run(async () => {
      const r = await call((c) => c.portalAccount.updateProfile({ payload: { name, time_zone: zone } }))
      setSession({ ...session, user: r.data })
      setSaved(true)
    })
  }
  const changePassword = (e: FormEvent) => {
    e.preventDefault()
    void password.run(async () => {
      await call((c) => c.portalAccount.changePassword({ payload: { current_password: current, new_password: next } }))
      setCurrent("")
      setNext("")
      setChanged(true)
    })
  }
  const a = profile.data?.data.account
  return (
    <>
      <PageTitle>{t("Profile")}</PageTitle>
      <form onSubmit={submit} className="card">
        <h2>{t("You")}</h2>
        <p>
          {session.user.email} · {session.user.role === "owner" ? t("Owner") : t("Member")} · {t("Last sign-in")}:{" "}
          <Time iso={session.user.last_sign_in_at} />
        </p>
        <Field label={t("Name")}>
          <input value={name} onChange={(e) => setName(e.currentTarget.value)} autoComplete="name" />
        </Field>
        <Field label={t("Time zone")} hint={t("Times in the portal are shown in this zone.")}>
          <select value={zone} onChange={(e) => setZone(e.currentTarget.value)}>
            {zones().map((z) => <option key={z} value={z}>{z}</option>)}
          </select>
        </Field>
        <ErrorBox error={save.error} />
        {saved && <p role="status">{t("Saved.")}</p>}
        <button type="submit" disabled={save.busy}>{t("Save")}</button>
      </form>
      <form onSubmit={changePassword} className="card">
        <h2>{t("Change password")}</h2>
        <Field label={t("Current password")}>
          <input
            type="password"
            autoComplete="current-password"
            required
            value={current}
            onChange={(e) => setCurrent(e.currentTarget.value)}
          />
        </Field>
        <Field label={t("New password")} hint={t("10 to 200 characters.")}>
          <input
            type="password"
            autoComplete="new-password"
            required
            value={next}
            onChange={(e) => setNext(e.currentTarget.value)}
          />
        </Field>
        <ErrorBox error={password.error} />
        {changed && <p role="status">{t("The password is changed; your other sessions are ended.")}</p>}
        <button type="submit" disabled={password.busy}>{t("Change password")}</button>
      </form>
      <section aria-labelledby="account" className="card">
        <h2 id="account">{t("Account")}</h2>
        <Loading loaded={profile} />
        {a !== undefined && (
          <dl className="facts">
            <div>
              <dt>{t("Name")}</dt>
              <dd>{a.name}</dd>
            </div>
            <div>
              <dt>{t("Email")}</dt>
              <dd>{a.email}</dd>
            </div>
            <div>
              <dt>{t("Phone")}</dt>
              <dd>{a.phone ?? "—"}</dd>
            </div>
            <div>
              <dt>{t("Country")}</dt>
              <dd>{a.country?.name ?? "—"}</dd>
            </div>
          </dl>
        )}
      </section>
    </>
  )
}

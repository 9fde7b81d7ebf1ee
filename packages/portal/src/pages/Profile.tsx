/** The user's name, time zone and password; the account's profile. */
import { useEffect, useState } from "react"
import { call } from "../api.js"
import { DEFAULT_TIME_ZONE } from "../format.js"
import { useI18n } from "../i18n.js"
import { useSession } from "../session.js"
import { Field, Loading, PageTitle, Time, useAction, useLoad } from "../ui.js"
import { Facts, onSubmit, PasswordField, SubmitRow, TextField } from "../widgets.js"
import { TwoFactorCard } from "./TwoFactor.js"

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
  const submit = onSubmit(save, async () => {
    const r = await call((c) => c.portalAccount.updateProfile({ payload: { name, time_zone: zone } }))
    setSession({ ...session, user: r.data })
    setSaved(true)
  })
  const changePassword = onSubmit(password, async () => {
    await call((c) => c.portalAccount.changePassword({ payload: { current_password: current, new_password: next } }))
    setCurrent("")
    setNext("")
    setChanged(true)
  })
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
        <TextField label={t("Name")} value={name} onChange={setName} autoComplete="name" />
        <Field label={t("Time zone")} hint={t("Times in the portal are shown in this zone.")}>
          <select value={zone} onChange={(e) => setZone(e.currentTarget.value)}>
            {zones().map((z) => <option key={z} value={z}>{z}</option>)}
          </select>
        </Field>
        <SubmitRow action={save} label={t("Save")} status={saved && <p role="status">{t("Saved.")}</p>} />
      </form>
      <form onSubmit={changePassword} className="card">
        <h2>{t("Change password")}</h2>
        <PasswordField label={t("Current password")} value={current} onChange={setCurrent} />
        <PasswordField label={t("New password")} value={next} onChange={setNext} isNew />
        <SubmitRow
          action={password}
          label={t("Change password")}
          status={changed && <p role="status">{t("The password is changed; your other sessions are ended.")}</p>}
        />
      </form>
      <TwoFactorCard />
      <section aria-labelledby="account" className="card">
        <h2 id="account">{t("Account")}</h2>
        <Loading loaded={profile} />
        {a !== undefined && (
          <Facts
            facts={[
              [t("Name"), <span translate="no">{a.name}</span>],
              [t("Email"), a.email],
              [t("Phone"), a.phone ?? "—"],
              [t("Country"), a.country?.name ?? "—"]
            ]}
          />
        )}
      </section>
    </>
  )
}

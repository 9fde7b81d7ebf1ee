/**
 * Two-factor sign-in in the portal: setting it up (a QR code of the authenticator address, the
 * secret to copy, a code to confirm), the recovery codes shown once (copy, download), and the
 * Profile's card (on, off with the password, new recovery codes). The sign-in page uses the same
 * pieces when the account requires a second factor.
 */
import { useState } from "react"
import { call } from "../api.js"
import { useI18n } from "../i18n.js"
import { CopyField, QrCode, RecoveryCodeList } from "../shared/secrets.js"
import { ErrorBox, Loading, useAction, useLoad } from "../ui.js"
import { onSubmit, PasswordField, SubmitRow } from "../widgets.js"

/** The field of a code: six digits from the app, or a recovery code. */
export function CodeField(props: { readonly value: string; readonly onChange: (v: string) => void }) {
  const { t } = useI18n()
  return (
    <div className="field">
      <label className="label" htmlFor="tf-code">{t("Authentication code")}</label>
      <input
        id="tf-code"
        aria-describedby="tf-code-hint"
        inputMode="text"
        autoComplete="one-time-code"
        required
        value={props.value}
        onChange={(e) => props.onChange(e.currentTarget.value)}
      />
      <small className="hint" id="tf-code-hint">{t("From your authenticator app, or a recovery code.")}</small>
    </div>
  )
}

/** How to add the secret to an authenticator app: the QR code and the key to type. */
export function EnrolSteps(props: { readonly secret: string; readonly uri: string }) {
  const { t } = useI18n()
  return (
    <>
      <p>
        {t(
          "Scan this QR code with an authenticator app (Google Authenticator, Microsoft Authenticator, Authy…), then enter the 6-digit code it shows."
        )}
      </p>
      <QrCode text={props.uri} label={t("QR code for your authenticator app")} />
      <CopyField
        label={t("Key to type if you cannot scan")}
        value={props.secret}
        copy={t("Copy key")}
        done={t("Copied.")}
        failed={t("Select the text and copy it.")}
      />
    </>
  )
}

/** Recovery codes, shown once, with copy and download; `onDone` when saved. */
export function RecoveryCodesPanel(
  props: { readonly codes: ReadonlyArray<string>; readonly onDone?: (() => void) | undefined }
) {
  const { t } = useI18n()
  return (
    <section aria-label={t("Recovery codes")} className="card">
      <h2>{t("Recovery codes")}</h2>
      <RecoveryCodeList
        codes={props.codes}
        fileName="tuma-recovery-codes.txt"
        words={{
          title: t("Tuma recovery codes"),
          explain: t(
            "Each code signs you in once if you lose your phone. Keep them somewhere safe: they are shown only now."
          ),
          copy: t("Copy codes"),
          copied: t("Copied."),
          copyFailed: t("Select the text and copy it."),
          download: t("Download codes")
        }}
      />
      {props.onDone !== undefined && <button type="button" onClick={props.onDone}>{t("I have saved them")}</button>}
    </section>
  )
}

/** The Profile's card: turn two-factor sign-in on (QR, code, codes) or off, or get new codes. */
export function TwoFactorCard() {
  const { t } = useI18n()
  const [version, setVersion] = useState(0)
  const status = useLoad(() => call((c) => c.portalAccount.twoFactor()), [version])
  const [enrolment, setEnrolment] = useState<{ secret: string; uri: string } | null>(null)
  const [codes, setCodes] = useState<ReadonlyArray<string> | null>(null)
  const [code, setCode] = useState("")
  const [password, setPassword] = useState("")
  const action = useAction()
  const s = status.data?.data
  const start = () =>
    void action.run(async () => {
      const r = await call((c) => c.portalAccount.startTwoFactor())
      setEnrolment(r.data)
    })
  const confirm = onSubmit(action, async () => {
    const r = await call((c) => c.portalAccount.confirmTwoFactor({ payload: { code } }))
    setEnrolment(null)
    setCode("")
    setCodes(r.data.recovery_codes)
    setVersion((v) => v + 1)
  })
  const disable = onSubmit(action, async () => {
    await call((c) => c.portalAccount.disableTwoFactor({ payload: { password } }))
    setPassword("")
    setVersion((v) => v + 1)
  })
  const renew = () =>
    void action.run(async () => {
      const r = await call((c) => c.portalAccount.regenerateRecoveryCodes())
      setCodes(r.data.recovery_codes)
      setVersion((v) => v + 1)
    })
  return (
    <section aria-labelledby="two-factor" className="card">
      <h2 id="two-factor">{t("Two-factor sign-in")}</h2>
      <Loading loaded={status} />
      {codes !== null && <RecoveryCodesPanel codes={codes} onDone={() => setCodes(null)} />}
      {s !== undefined && !s.enabled && enrolment === null && (
        <>
          <p>
            {s.required_by_account
              ? t("Your account requires it: you will set it up at your next sign-in, or now.")
              : t("Off. With it on, signing in also asks for a code from an app on your phone.")}
          </p>
          <ErrorBox error={action.error} />
          <button type="button" onClick={start} disabled={action.busy}>{t("Set up two-factor sign-in")}</button>
        </>
      )}
      {enrolment !== null && (
        <form onSubmit={confirm}>
          <EnrolSteps {...enrolment} />
          <CodeField value={code} onChange={setCode} />
          <SubmitRow action={action} label={t("Turn on")} />
        </form>
      )}
      {s !== undefined && s.enabled && (
        <>
          <p>
            {t("On: signing in asks for a code from your authenticator app. Unused recovery codes: {n}.", {
              n: s.unused_recovery_codes
            })}
          </p>
          <button type="button" onClick={renew} disabled={action.busy}>{t("New recovery codes")}</button>
          {enrolment === null && codes === null && <ErrorBox error={action.error} />}
          {s.required_by_account
            ? <p>{t("Your account requires two-factor sign-in, so it cannot be turned off.")}</p>
            : (
              <form onSubmit={disable}>
                <PasswordField label={t("Password")} value={password} onChange={setPassword} />
                <SubmitRow action={action} label={t("Turn off two-factor sign-in")} />
              </form>
            )}
        </>
      )}
    </section>
  )
}

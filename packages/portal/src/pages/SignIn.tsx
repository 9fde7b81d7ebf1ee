/** Sign in, accept an invitation, reset a password: the pages without a session. */
import type { SessionView } from "@tuma/http/portal/Api"
import { useState } from "react"
import { call, setCsrfToken } from "../api.js"
import { useI18n } from "../i18n.js"
import { LanguageSwitch } from "../LanguageSwitch.js"
import { navigate } from "../router.js"
import { ErrorBox, useAction, useLoad } from "../ui.js"
import { AnonymousFrame, onSubmit, PasswordField, SubmitRow, TextField } from "../widgets.js"
import { CodeField, EnrolSteps, RecoveryCodesPanel } from "./TwoFactor.js"

/** The pre-session CSRF token (double submit cookie) for the anonymous state changes. */
const anonymousCsrf = async () => {
  const r = await call((c) => c.portalSession.csrf())
  setCsrfToken(r.data.csrf_token)
}

export function SignInPage(props: { readonly onSignedIn: (s: SessionView) => void }) {
  const { t } = useI18n()
  const [email, setEmail] = useState("")
  const [password, setPassword] = useState("")
  const [code, setCode] = useState("")
  /** The second factor asked for after the right password: a code, or an enrolment (required by the account). */
  const [second, setSecond] = useState<"code" | { secret: string; uri: string } | null>(null)
  const [signedIn, setSignedIn] = useState<{ session: SessionView; codes: ReadonlyArray<string> } | null>(null)
  const [forgot, setForgot] = useState(false)
  const [resetSent, setResetSent] = useState(false)
  const action = useAction()
  const submit = onSubmit(action, async () => {
    await anonymousCsrf()
    if (forgot) {
      await call((c) => c.portalSession.requestPasswordReset({ payload: { email } }))
      setResetSent(true)
      return
    }
    const r = await call((c) =>
      c.portalSession.signIn({ payload: second === null ? { email, password } : { email, password, code } })
    )
    const d = r.data
    if ("two_factor" in d) {
      setSecond(d.two_factor === "code_required" ? "code" : d.enrolment)
      return
    }
    const { recovery_codes, ...session } = d
    if (recovery_codes !== undefined) setSignedIn({ session, codes: recovery_codes })
    else props.onSignedIn(session)
  })
  if (signedIn !== null) {
    return (
      <AnonymousFrame title={t("Two-factor sign-in is on")} switcher={<LanguageSwitch />}>
        <RecoveryCodesPanel codes={signedIn.codes} onDone={() => props.onSignedIn(signedIn.session)} />
      </AnonymousFrame>
    )
  }
  return (
    <AnonymousFrame title={forgot ? t("Reset your password") : t("Sign in to Tuma")} switcher={<LanguageSwitch />}>
      <form onSubmit={submit} className="card narrow">
        <TextField label={t("Email")} type="email" autoComplete="username" required value={email} onChange={setEmail} />
        {!forgot && <PasswordField label={t("Password")} value={password} onChange={setPassword} />}
        {!forgot && second !== null && second !== "code" && (
          <>
            <h2>{t("Set up two-factor sign-in")}</h2>
            <p>{t("Your account requires a second step at sign-in.")}</p>
            <EnrolSteps {...second} />
          </>
        )}
        {!forgot && second !== null && <CodeField value={code} onChange={setCode} />}
        <SubmitRow
          action={action}
          label={forgot ? t("Send reset link") : t("Sign in")}
          status={resetSent && (
            <p role="status">{t("If the address is known, a link to reset the password was sent.")}</p>
          )}
        />
        <button type="button" className="link" onClick={() => setForgot(!forgot)}>
          {forgot ? t("Back to sign in") : t("Forgot password?")}
        </button>
      </form>
    </AnonymousFrame>
  )
}

export function AcceptInvitationPage(
  props: { readonly token: string; readonly onSignedIn: (s: SessionView) => void }
) {
  const { t } = useI18n()
  const invitation = useLoad(() => call((c) => c.portalSession.getInvitation({ path: { token: props.token } })), [
    props.token
  ])
  const [name, setName] = useState("")
  const [password, setPassword] = useState("")
  const action = useAction()
  const submit = onSubmit(action, async () => {
    await anonymousCsrf()
    const r = await call((c) =>
      c.portalSession.acceptInvitation({
        payload: name.trim() === "" ? { token: props.token, password } : { token: props.token, password, name }
      })
    )
    props.onSignedIn(r.data)
    navigate("/", { replace: true })
  })
  return (
    <AnonymousFrame title={t("Accept the invitation")} switcher={<LanguageSwitch />}>
      <ErrorBox error={invitation.error} />
      {invitation.data !== undefined && (
        <form onSubmit={submit} className="card narrow">
          <p>
            {t("You are invited to {account} as {role}.", {
              account: invitation.data.data.account_name,
              role: invitation.data.data.role === "owner" ? t("Owner") : t("Member")
            })}
          </p>
          <p>{invitation.data.data.email}</p>
          <TextField label={t("Name")} value={name} onChange={setName} autoComplete="name" />
          <PasswordField label={t("Password")} value={password} onChange={setPassword} isNew />
          <SubmitRow action={action} label={t("Accept and sign in")} />
        </form>
      )}
    </AnonymousFrame>
  )
}

export function ResetPasswordPage(props: { readonly token: string }) {
  const { t } = useI18n()
  const [password, setPassword] = useState("")
  const [done, setDone] = useState(false)
  const action = useAction()
  const submit = onSubmit(action, async () => {
    await anonymousCsrf()
    await call((c) => c.portalSession.completePasswordReset({ payload: { token: props.token, password } }))
    setDone(true)
  })
  return (
    <AnonymousFrame title={t("Choose a new password")} switcher={<LanguageSwitch />}>
      {done
        ? (
          <p role="status">
            {t("The password is changed.")} <a href="/portal/">{t("Sign in")}</a>
          </p>
        )
        : (
          <form onSubmit={submit} className="card narrow">
            <PasswordField label={t("New password")} value={password} onChange={setPassword} isNew />
            <SubmitRow action={action} label={t("Set password")} />
          </form>
        )}
    </AnonymousFrame>
  )
}

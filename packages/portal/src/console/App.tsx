/**
 * The operator console: the sign-in page (password and authentication code; an admin's first
 * sign-in shows the TOTP secret to enrol, then the recovery codes once), the invitation page, and
 * the shell (navigation by role, sign out) around the page of the current path.
 */
import { operatorMay } from "@tuma/domain/operatorRoles"
import type { ReactNode } from "react"
import { useEffect, useState } from "react"
import { I18nProvider, useI18n } from "../i18n.js"
import { LanguageSwitch } from "../LanguageSwitch.js"
import { AppFrame, isCurrent } from "../shared/nav.js"
import { PageBoundary, PageFailed } from "../shared/PageBoundary.js"
import { CopyField, QrCode, RecoveryCodeList } from "../shared/secrets.js"
import { api, onSignedOut, setCsrfToken } from "./api.js"
import { Input, useAction, useForm } from "./forms.js"
import { AccountPage, AccountsPage } from "./pages/Accounts.js"
import { AuditLogPage } from "./pages/AuditLog.js"
import { CreditPage } from "./pages/Credit.js"
import { InboundPage } from "./pages/Inbound.js"
import { MarketsPage } from "./pages/Markets.js"
import { OperatorsPage } from "./pages/Operators.js"
import { OutboxPage } from "./pages/Outbox.js"
import { OverviewPage } from "./pages/Overview.js"
import { ProvidersPage } from "./pages/Providers.js"
import { ReviewPage } from "./pages/Review.js"
import { SmppPage } from "./pages/Smpp.js"
import { SpamPage } from "./pages/Spam.js"
import { WebhooksPage } from "./pages/Webhooks.js"
import type { ConsoleSession } from "./session.js"
import { SessionContext } from "./session.js"
import { ErrorBox, Link, navigate, usePath } from "./ui.js"
import { roleName } from "./views.js"

const nav: ReadonlyArray<readonly [string, string]> = [
  ["/", "Overview"],
  ["/accounts", "Accounts"],
  ["/credit", "Credit"],
  ["/sender-ids", "Sender ID review"],
  ["/markets", "Routes and markets"],
  ["/providers", "Providers"],
  ["/smpp", "SMPP"],
  ["/inbound", "Inbound numbers"],
  ["/spam", "Spam rules and opt-outs"],
  ["/webhooks", "Webhook deliveries"],
  ["/audit-log", "Audit log"],
  ["/operators", "Operators"],
  ["/outbox", "Outbox"]
]

/** The page of each path of the navigation. */
const pages: Readonly<Record<string, () => ReactNode>> = {
  "/": OverviewPage,
  "/accounts": AccountsPage,
  "/credit": CreditPage,
  "/sender-ids": ReviewPage,
  "/markets": MarketsPage,
  "/providers": ProvidersPage,
  "/smpp": SmppPage,
  "/inbound": InboundPage,
  "/spam": SpamPage,
  "/webhooks": WebhooksPage,
  "/audit-log": AuditLogPage,
  "/operators": OperatorsPage,
  "/outbox": OutboxPage
}

function NotFound() {
  const { t } = useI18n()
  return <h1>{t("Page not found")}</h1>
}

const page = (path: string): ReactNode => {
  if (path.startsWith("/accounts/")) return <AccountPage uid={decodeURIComponent(path.slice(10))} />
  const Page = pages[path]
  return Page === undefined ? <NotFound /> : <Page />
}

/** What `POST /console/api/session` answers: the session, or the TOTP enrolment to do first. */
type SignInView =
  | (ConsoleSession & { readonly enrolment?: undefined; readonly recovery_codes?: ReadonlyArray<string> })
  | { readonly enrolment: { secret: string; uri: string } }

function SignInPage(props: { readonly onSignedIn: (s: ConsoleSession, codes: ReadonlyArray<string> | null) => void }) {
  const { t } = useI18n()
  const form = useForm({ email: "", password: "", code: "" })
  const [enrolment, setEnrolment] = useState<{ secret: string; uri: string } | null>(null)
  const action = useAction()
  const submit = () =>
    action.run(async () => {
      const r = await api<SignInView>("POST", "/session", form.values)
      if (r.enrolment !== undefined) {
        setEnrolment(r.enrolment)
        return
      }
      setCsrfToken(r.csrf_token)
      props.onSignedIn(r, r.recovery_codes ?? null)
    })
  return (
    <div className="signin">
      <main>
        <LanguageSwitch />
        <h1>{t("Tuma console")}</h1>
        <form
          className="card"
          onSubmit={(e) => {
            e.preventDefault()
            void submit()
          }}
        >
          <Input label={t("Email")} type="email" autoComplete="username" {...form.bind("email")} />
          <Input label={t("Password")} type="password" autoComplete="current-password" {...form.bind("password")} />
          {enrolment !== null && (
            <section aria-label={t("Set up your authenticator")} className="card">
              <h2>{t("Set up your authenticator")}</h2>
              <p>
                {t(
                  "Admins sign in with a second factor. Scan this QR code with an authenticator app (TOTP), or type the secret, then enter the 6-digit code it shows."
                )}
              </p>
              <QrCode text={enrolment.uri} label={t("QR code for your authenticator app")} />
              <CopyField
                label={t("Secret")}
                value={enrolment.secret}
                copy={t("Copy secret")}
                done={t("Copied.")}
                failed={t("Select the text and copy it.")}
              />
              <CopyField
                label={t("Authenticator URI")}
                value={enrolment.uri}
                copy={t("Copy URI")}
                done={t("Copied.")}
                failed={t("Select the text and copy it.")}
              />
            </section>
          )}
          <Input
            label={t("Authentication code")}
            hint={t("From your authenticator app, or a recovery code.")}
            inputMode="numeric"
            autoComplete="one-time-code"
            {...form.bind("code")}
          />
          <button type="submit" disabled={action.busy}>{t("Sign in")}</button>
          <ErrorBox error={action.error} />
        </form>
      </main>
    </div>
  )
}

function AcceptInvitationPage(props: { readonly token: string }) {
  const { t } = useI18n()
  const [invited, setInvited] = useState<{ email: string; role: string } | null | undefined>(undefined)
  const [name, setName] = useState("")
  const [password, setPassword] = useState("")
  const [done, setDone] = useState(false)
  const action = useAction()
  useEffect(() => {
    api<{ email: string; role: string }>("GET", `/invitations/${encodeURIComponent(props.token)}`).then(
      setInvited,
      () => setInvited(null)
    )
  }, [props.token])
  return (
    <div className="signin">
      <main>
        <LanguageSwitch />
        <h1>{t("Join the Tuma console")}</h1>
        {invited === null && <p role="alert">{t("This invitation is not valid: it was used or has expired.")}</p>}
        {invited !== null && invited !== undefined && !done && (
          <form
            className="card"
            onSubmit={(e) => {
              e.preventDefault()
              void action.run(async () => {
                await api("POST", "/invitations/accept", { token: props.token, password, name })
                setDone(true)
              })
            }}
          >
            <p>
              {invited.email} · {t(roleName(invited.role))}
            </p>
            <Input label={t("Name")} value={name} onChange={(e) => setName(e.currentTarget.value)} />
            <Input
              label={t("Password")}
              hint={t("At least 10 characters.")}
              type="password"
              autoComplete="new-password"
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
            />
            <button type="submit" disabled={action.busy}>{t("Set password")}</button>
            <ErrorBox error={action.error} />
          </form>
        )}
        {done && (
          <p role="status">
            {t("Your password is set.")} <Link to="/">{t("Sign in")}</Link>
          </p>
        )}
      </main>
    </div>
  )
}

function RecoveryCodes(props: { readonly codes: ReadonlyArray<string>; readonly onDone: () => void }) {
  const { t } = useI18n()
  return (
    <section aria-label={t("Recovery codes")} className="card">
      <h2>{t("Recovery codes")}</h2>
      <RecoveryCodeList
        codes={props.codes}
        fileName="tuma-console-recovery-codes.txt"
        words={{
          title: t("Tuma console recovery codes"),
          explain: t(
            "Each code signs you in once if you lose your authenticator. Keep them safe: they are shown only now."
          ),
          copy: t("Copy codes"),
          copied: t("Copied."),
          copyFailed: t("Select the text and copy it."),
          download: t("Download codes")
        }}
      />
      <button type="button" onClick={props.onDone}>{t("I have saved them")}</button>
    </section>
  )
}

function Shell(props: { readonly session: ConsoleSession; readonly onSignedOut: () => void }) {
  const path = usePath()
  const action = useAction()
  const { t } = useI18n()
  const active = (to: string) => (to === "/" ? path === "/" : isCurrent(to, path))
  const role = props.session.operator.role
  const visible = nav.filter(([to]) =>
    to === "/operators"
      ? operatorMay(role, "operators.manage")
      : to === "/outbox"
      ? operatorMay(role, "outbox.read")
      : true
  )
  return (
    <SessionContext.Provider value={props.session}>
      <AppFrame
        brand={t("Tuma console")}
        menu={t("Menu")}
        path={path}
        label={t("Main")}
        items={visible.map(([to, name]) => [to, t(name)] as const)}
        active={active}
        Link={Link}
        top={
          <>
            <span className="who">
              <span>{props.session.operator.email}</span> · <span>{t(roleName(props.session.operator.role))}</span>
            </span>
            <LanguageSwitch />
            <button
              type="button"
              disabled={action.busy}
              onClick={() =>
                void action.run(async () => {
                  await api("DELETE", "/session").catch(() => undefined)
                  props.onSignedOut()
                  navigate("/", { replace: true })
                })}
            >
              {t("Sign out")}
            </button>
          </>
        }
      >
        <PageBoundary resetKey={path} fallback={<PageFailed />}>
          {page(path)}
        </PageBoundary>
      </AppFrame>
    </SessionContext.Provider>
  )
}

/** The console app, in the language chosen with the switch (English or Kiswahili, remembered with the portal's). */
export function App() {
  return (
    <I18nProvider>
      <ConsoleApp />
    </I18nProvider>
  )
}

function ConsoleApp() {
  const { t } = useI18n()
  const path = usePath()
  const [session, setSessionState] = useState<ConsoleSession | null | undefined>(undefined)
  const [codes, setCodes] = useState<ReadonlyArray<string> | null>(null)
  const setSession = (s: ConsoleSession | null) => {
    setCsrfToken(s?.csrf_token ?? null)
    setSessionState(s)
  }
  useEffect(() => {
    api<ConsoleSession>("GET", "/session").then(setSession, () => setSession(null))
    return onSignedOut(() => setSession(null))
  }, [])
  if (path === "/accept-invitation") {
    return <AcceptInvitationPage token={new URLSearchParams(window.location.search).get("token") ?? ""} />
  }
  if (session === undefined) return <p aria-live="polite">{t("Loading…")}</p>
  if (session === null) {
    return (
      <SignInPage
        onSignedIn={(s, c) => {
          setSession(s)
          setCodes(c)
        }}
      />
    )
  }
  if (codes !== null && codes.length > 0) {
    return (
      <div className="signin">
        <main>
          <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />
        </main>
      </div>
    )
  }
  return <Shell session={session} onSignedOut={() => setSession(null)} />
}

/**
 * The app: the sign-in page until there is a session, then the shell (navigation, language,
 * sign out) around the page of the current path.
 */
import type { SessionView } from "@tuma/http/portal/Api"
import { useEffect, useState } from "react"
import type { ReactNode } from "react"
import { call, onSignedOut, setCsrfToken } from "./api.js"
import { formatNumber } from "./format.js"
import { useI18n } from "./i18n.js"
import { LanguageSwitch } from "./LanguageSwitch.js"
import { ApiKeysPage } from "./pages/ApiKeys.js"
import { BalancePage } from "./pages/Balance.js"
import { CampaignPage, CampaignsPage } from "./pages/Campaigns.js"
import { ContactsPage } from "./pages/Contacts.js"
import { DashboardPage } from "./pages/Dashboard.js"
import { ConversationPage, InboxPage } from "./pages/Inbox.js"
import { MessagePage, MessagesPage } from "./pages/Messages.js"
import { ProfilePage } from "./pages/Profile.js"
import { SendPage } from "./pages/Send.js"
import { SenderIdsPage } from "./pages/SenderIds.js"
import { AcceptInvitationPage, ResetPasswordPage, SignInPage } from "./pages/SignIn.js"
import { SmppPage } from "./pages/Smpp.js"
import { TeamPage } from "./pages/Team.js"
import { TemplatesPage } from "./pages/Templates.js"
import { WebhooksPage } from "./pages/Webhooks.js"
import { Link, navigate, usePath } from "./router.js"
import { SessionContext } from "./session.js"
import { AppFrame, isCurrent } from "./shared/nav.js"
import { PageBoundary, PageFailed } from "./shared/PageBoundary.js"
import { useAction } from "./ui.js"

const nav: ReadonlyArray<readonly [string, string]> = [
  ["/", "Dashboard"],
  ["/send", "Send SMS"],
  ["/inbox", "Inbox"],
  ["/campaigns", "Campaigns"],
  ["/contacts", "Contacts"],
  ["/templates", "Templates"],
  ["/messages", "Messages"],
  ["/sender-ids", "Sender IDs"],
  ["/api-keys", "API keys"],
  ["/webhooks", "Webhooks"],
  ["/smpp", "SMPP"],
  ["/balance", "Balance"],
  ["/profile", "Profile"],
  ["/team", "Team"]
]

const page = (path: string): ReactNode => {
  if (path === "/" || path === "/dashboard") return <DashboardPage />
  if (path === "/send") return <SendPage />
  if (path === "/inbox") return <InboxPage />
  if (path.startsWith("/inbox/")) {
    const [handset = "", number = ""] = path.slice(7).split("/").map(decodeURIComponent)
    return <ConversationPage handset={handset} number={number} />
  }
  if (path === "/campaigns") return <CampaignsPage />
  if (path.startsWith("/campaigns/")) return <CampaignPage uid={decodeURIComponent(path.slice(11))} />
  if (path === "/contacts") return <ContactsPage />
  if (path === "/templates") return <TemplatesPage />
  if (path === "/messages") return <MessagesPage />
  if (path.startsWith("/messages/")) return <MessagePage uid={decodeURIComponent(path.slice(10))} />
  if (path === "/sender-ids") return <SenderIdsPage />
  if (path === "/api-keys") return <ApiKeysPage />
  if (path === "/webhooks") return <WebhooksPage />
  if (path === "/smpp") return <SmppPage />
  if (path === "/balance") return <BalancePage />
  if (path === "/profile") return <ProfilePage />
  if (path === "/team") return <TeamPage />
  return <NotFound />
}

function NotFound() {
  const { t } = useI18n()
  return (
    <>
      <h1>{t("Page not found")}</h1>
      <Link to="/">{t("Dashboard")}</Link>
    </>
  )
}

function Shell(props: { readonly session: SessionView; readonly setSession: (s: SessionView | null) => void }) {
  const { t, lang } = useI18n()
  const path = usePath()
  const action = useAction()
  const { session, setSession } = props
  // the chosen language is also the user's locale (e-mails, next sign-in elsewhere)
  useEffect(() => {
    if (session.user.locale !== lang) {
      void call((c) => c.portalAccount.updateProfile({ payload: { locale: lang } })).then(
        (r) => setSession({ ...session, user: r.data }),
        () => {}
      )
    }
  }, [lang, session, setSession])
  // the inbox's unread count, in the navigation (read again on every page change)
  const [unread, setUnread] = useState(0)
  useEffect(() => {
    void call((c) => c.portalInbox.inboxUnread()).then((r) => setUnread(r.data.unread), () => {})
  }, [path])
  const signOut = (everywhere: boolean) =>
    action.run(async () => {
      await call((c) => everywhere ? c.portalSession.signOutEverywhere() : c.portalSession.signOut()).catch(() =>
        undefined
      )
      setCsrfToken(null)
      setSession(null)
      navigate("/", { replace: true })
    })
  const active = (to: string) => (to === "/" ? path === "/" || path === "/dashboard" : isCurrent(to, path))
  return (
    <SessionContext.Provider value={{ session, setSession }}>
      <AppFrame
        brand="Tuma"
        menu={t("Menu")}
        path={path}
        label={t("Main")}
        items={nav.map((
          [to, name]
        ) => [to, to === "/inbox" && unread > 0 ? `${t(name)} (${formatNumber(unread, lang)})` : t(name)])}
        active={active}
        Link={Link}
        top={
          <>
            <span className="who">
              <span translate="no">{session.account.name}</span> · <span>{session.user.email}</span> ·{" "}
              <span>{session.user.role === "owner" ? t("Owner") : t("Member")}</span>
            </span>
            <LanguageSwitch />
            <button type="button" onClick={() => void signOut(false)} disabled={action.busy}>{t("Sign out")}</button>
            <button type="button" onClick={() => void signOut(true)} disabled={action.busy}>
              {t("Sign out everywhere")}
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

export function App() {
  const { t } = useI18n()
  const path = usePath()
  const [session, setSessionState] = useState<SessionView | null | undefined>(undefined)
  const setSession = (s: SessionView | null) => {
    setCsrfToken(s?.csrf_token ?? null)
    setSessionState(s)
  }
  useEffect(() => {
    call((c) => c.portalSession.me()).then((r) => setSession(r.data), () => setSession(null))
    return onSignedOut(() => setSession(null))
  }, [])
  // the e-mailed links (core's PortalAccess): /portal/accept-invitation?token=…, /portal/reset-password?token=…
  const token = new URLSearchParams(window.location.search).get("token") ?? ""
  if (path === "/accept-invitation") {
    return <AcceptInvitationPage token={token} onSignedIn={setSession} />
  }
  if (path === "/reset-password") return <ResetPasswordPage token={token} />
  if (session === undefined) return <p aria-live="polite">{t("Loading…")}</p>
  if (session === null) return <SignInPage onSignedIn={setSession} />
  return <Shell session={session} setSession={setSession} />
}

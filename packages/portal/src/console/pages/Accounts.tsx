/** Accounts: the list, creating one (its owner is invited), one account's details, suspend and activate. */
import { useContext, useState } from "react"
import { api } from "../api.js"
import { ActionForm, Field, Input, Toggle, useAction, useForm } from "../forms.js"
import { SessionContext, useMay } from "../session.js"
import { ErrorBox, Facts, InvitationLink, Link, Loading, Section, Status, Table, Time, useLoad, useT } from "../ui.js"
import type { AccountDetailView, AccountView, CreatedAccountView, WalletView } from "../views.js"
import { mailSaid } from "../views.js"

/** The accounts (for lists and pickers). */
export const useAccounts = (search = "") =>
  useLoad<ReadonlyArray<AccountView>>(
    () => api("GET", `/accounts${search ? `?search=${encodeURIComponent(search)}` : ""}`),
    [
      search
    ]
  )

/** A picker of accounts by name (and owner e-mail); `empty` names the choice of none ("Choose an account"). */
export function AccountPicker(
  props: { readonly value: string; readonly onChange: (uid: string) => void; readonly empty?: string }
) {
  const t = useT()
  const accounts = useAccounts()
  return (
    <Field label={t("Account")}>
      <select value={props.value} onChange={(e) => props.onChange(e.currentTarget.value)}>
        <option value="">{props.empty ?? t("Choose an account")}</option>
        {(accounts.data ?? []).map((a) => <option key={a.uid} value={a.uid}>{a.name} ({a.email})</option>)}
      </select>
    </Field>
  )
}

/** The Accounts page. */
export function AccountsPage() {
  const t = useT()
  const may = useMay()
  const [search, setSearch] = useState("")
  const accounts = useAccounts(search)
  const form = useForm({ name: "", email: "", country: "TZ" })
  const [invitationLink, setInvitationLink] = useState<string | null>(null)
  return (
    <>
      <h1>{t("Accounts")}</h1>
      <Field label={t("Search")}>
        <input type="search" value={search} onChange={(e) => setSearch(e.currentTarget.value)} />
      </Field>
      <Loading loaded={accounts} />
      <Table
        rows={accounts.data ?? []}
        rowKey={(a) => a.uid}
        columns={[
          [t("Name"), (a) => <Link to={`/accounts/${a.uid}`}>{a.name}</Link>],
          [t("Email"), (a) => a.email],
          [t("Status"), (a) => <Status status={a.active ? "active" : "suspended"} />],
          [t("Created"), (a) => <Time iso={a.created_at} />]
        ]}
      />
      {may("accounts.manage") && (
        <Section title={t("Create an account")}>
          <ActionForm
            submit={t("Create account")}
            run={async () => {
              const { email } = form.values
              setInvitationLink(null)
              const a = await api<CreatedAccountView>("POST", "/accounts", form.values)
              form.reset("name", "email")
              accounts.reload()
              const invitation = a.owner_invitation
              if (invitation === null || invitation === undefined) {
                return t("{name} created; {email} has a portal user already.", { name: a.name, email })
              }
              if (invitation.mail === "sent") {
                return t("{name} created; {email} is invited to the portal by e-mail.", {
                  name: a.name,
                  email: invitation.email
                })
              }
              setInvitationLink(invitation.link)
              return t(
                "{name} created; {email} is invited to the portal, {mail}: copy the invitation link below and pass it on.",
                {
                  name: a.name,
                  email: invitation.email,
                  mail: t(mailSaid(invitation.mail))
                }
              )
            }}
          >
            <Input label={t("Account name")} {...form.bind("name")} />
            <Input label={t("Owner email")} type="email" {...form.bind("email")} />
            <Input label={t("Country")} {...form.bind("country")} />
          </ActionForm>
          {invitationLink !== null && <InvitationLink link={invitationLink} />}
        </Section>
      )}
    </>
  )
}

/** One account, read-only but for suspend and activate. */
export function AccountPage(props: { readonly uid: string }) {
  useContext(SessionContext)
  const t = useT()
  const may = useMay()
  const detail = useLoad<AccountDetailView>(() => api("GET", `/accounts/${encodeURIComponent(props.uid)}`), [props.uid])
  const action = useAction()
  const d = detail.data
  return (
    <>
      <h1>{d?.account.name ?? t("Account")}</h1>
      <Loading loaded={detail} />
      {d !== undefined && (
        <>
          <Facts
            facts={[
              [t("Email"), d.account.email],
              [t("Status"), <Status status={d.account.active ? "active" : "suspended"} />],
              [t("Created"), <Time iso={d.account.created_at} />]
            ]}
          />
          {may("accounts.manage") && (
            <div className="actions">
              <Toggle
                action={action}
                on={d.account.active}
                path={`/accounts/${props.uid}`}
                name={t("account")}
                verbs={["suspend", "activate"]}
                then={detail.reload}
              />
            </div>
          )}
          <ErrorBox error={action.error} />
          <Section title={t("Wallets")}>
            <WalletTable wallets={d.wallets} />
          </Section>
          <Section title={t("API keys")}>
            <Table
              rows={d.api_keys}
              rowKey={(k) => k.uid}
              columns={[
                [t("Name"), (k) => <span translate="no">{k.name}</span>],
                [t("Prefix"), (k) => <code>{k.prefix}</code>],
                [t("Mode"), (k) => t(k.mode === "live" ? "Live" : "Test")],
                [t("Status"), (k) => <Status status={k.status} />],
                [t("Last used"), (k) => <Time iso={k.last_used_at} />]
              ]}
            />
          </Section>
          <Section title={t("Sender IDs")}>
            <Table
              rows={d.sender_ids}
              rowKey={(s) => s.uid}
              columns={[
                [t("Sender ID"), (s) => s.sender_id],
                [t("Country"), (s) => s.country],
                [t("Status"), (s) => <Status status={s.status} />]
              ]}
            />
          </Section>
          <Section title={t("Recent messages")}>
            <Table
              rows={d.recent_messages?.data ?? []}
              rowKey={(m) => m.uid}
              columns={[
                [t("To"), (m) => m.recipient ?? m.to],
                [t("Sender ID"), (m) => m.sender_id],
                [t("Status"), (m) => <Status status={m.status} />],
                [t("Created"), (m) => <Time iso={m.queued_at ?? null} />]
              ]}
            />
          </Section>
        </>
      )}
    </>
  )
}

/** An account's wallets: country, balance, enabled. */
export function WalletTable(props: { readonly wallets: ReadonlyArray<WalletView> }) {
  const t = useT()
  return (
    <Table
      rows={props.wallets}
      rowKey={(w) => w.wallet_uid}
      columns={[
        [t("Country"), (w) => w.country],
        [t("Balance"), (w) => w.balance],
        [t("Enabled"), (w) => (w.enabled ? t("yes") : t("no"))]
      ]}
    />
  )
}

/** Accounts: the list, creating one (its owner is invited), one account's details, suspend and activate. */
import { useContext, useState } from "react"
import { api } from "../api.js"
import { ActionForm, Field, Input, Toggle, useAction, useForm } from "../forms.js"
import { SessionContext, useMay } from "../session.js"
import { ErrorBox, Facts, InvitationLink, Link, Loading, Section, Status, Table, Time, useLoad } from "../ui.js"
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

/** A picker of accounts. */
export function AccountPicker(props: { readonly value: string; readonly onChange: (uid: string) => void }) {
  const accounts = useAccounts()
  return (
    <Field label="Account">
      <select value={props.value} onChange={(e) => props.onChange(e.currentTarget.value)}>
        <option value="">Choose an account</option>
        {(accounts.data ?? []).map((a) => <option key={a.uid} value={a.uid}>{a.name} ({a.email})</option>)}
      </select>
    </Field>
  )
}

/** The Accounts page. */
export function AccountsPage() {
  const may = useMay()
  const [search, setSearch] = useState("")
  const accounts = useAccounts(search)
  const form = useForm({ name: "", email: "", country: "TZ" })
  const [invitationLink, setInvitationLink] = useState<string | null>(null)
  return (
    <>
      <h1>Accounts</h1>
      <Field label="Search">
        <input type="search" value={search} onChange={(e) => setSearch(e.currentTarget.value)} />
      </Field>
      <Loading loaded={accounts} />
      <Table
        rows={accounts.data ?? []}
        rowKey={(a) => a.uid}
        columns={[
          ["Name", (a) => <Link to={`/accounts/${a.uid}`}>{a.name}</Link>],
          ["Email", (a) => a.email],
          ["Status", (a) => <Status status={a.active ? "active" : "suspended"} />],
          ["Created", (a) => <Time iso={a.created_at} />]
        ]}
      />
      {may("accounts.manage") && (
        <Section title="Create an account">
          <ActionForm
            submit="Create account"
            run={async () => {
              const { email } = form.values
              setInvitationLink(null)
              const a = await api<CreatedAccountView>("POST", "/accounts", form.values)
              form.reset("name", "email")
              accounts.reload()
              const invitation = a.owner_invitation
              if (invitation === null || invitation === undefined) {
                return `${a.name} created; ${email} has a portal user already.`
              }
              if (invitation.mail === "sent") {
                return `${a.name} created; ${invitation.email} is invited to the portal by e-mail.`
              }
              setInvitationLink(invitation.link)
              return `${a.name} created; ${invitation.email} is invited to the portal, ${
                mailSaid(invitation.mail)
              }: copy the invitation link below and pass it on.`
            }}
          >
            <Input label="Account name" {...form.bind("name")} />
            <Input label="Owner email" type="email" {...form.bind("email")} />
            <Input label="Country" {...form.bind("country")} />
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
  const may = useMay()
  const detail = useLoad<AccountDetailView>(() => api("GET", `/accounts/${encodeURIComponent(props.uid)}`), [props.uid])
  const action = useAction()
  const d = detail.data
  return (
    <>
      <h1>{d?.account.name ?? "Account"}</h1>
      <Loading loaded={detail} />
      {d !== undefined && (
        <>
          <Facts
            facts={[
              ["Email", d.account.email],
              ["Status", <Status status={d.account.active ? "active" : "suspended"} />],
              ["Created", <Time iso={d.account.created_at} />]
            ]}
          />
          {may("accounts.manage") && (
            <div className="actions">
              <Toggle
                action={action}
                on={d.account.active}
                path={`/accounts/${props.uid}`}
                name="account"
                verbs={["suspend", "activate"]}
                then={detail.reload}
              />
            </div>
          )}
          <ErrorBox error={action.error} />
          <Section title="Wallets">
            <WalletTable wallets={d.wallets} />
          </Section>
          <Section title="API keys">
            <Table
              rows={d.api_keys}
              rowKey={(k) => k.uid}
              columns={[
                ["Name", (k) => k.name],
                ["Prefix", (k) => <code>{k.prefix}</code>],
                ["Mode", (k) => k.mode],
                ["Status", (k) => <Status status={k.status} />],
                ["Last used", (k) => <Time iso={k.last_used_at} />]
              ]}
            />
          </Section>
          <Section title="Sender IDs">
            <Table
              rows={d.sender_ids}
              rowKey={(s) => s.uid}
              columns={[
                ["Sender ID", (s) => s.sender_id],
                ["Country", (s) => s.country],
                ["Status", (s) => <Status status={s.status} />]
              ]}
            />
          </Section>
          <Section title="Recent messages">
            <Table
              rows={d.recent_messages?.data ?? []}
              rowKey={(m) => m.uid}
              columns={[
                ["To", (m) => m.recipient ?? m.to],
                ["Sender ID", (m) => m.sender_id],
                ["Status", (m) => <Status status={m.status} />],
                ["Created", (m) => <Time iso={m.queued_at ?? null} />]
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
  return (
    <Table
      rows={props.wallets}
      rowKey={(w) => w.wallet_uid}
      columns={[
        ["Country", (w) => w.country],
        ["Balance", (w) => w.balance],
        ["Enabled", (w) => (w.enabled ? "yes" : "no")]
      ]}
    />
  )
}

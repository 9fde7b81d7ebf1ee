/** Accounts: the list, creating one (its owner is invited), one account's details, suspend and activate. */
import { useContext, useState } from "react"
import { api } from "../api.js"
import { SessionContext, useMay } from "../session.js"
import { ErrorBox, Field, Head, Link, Loading, Section, Status, Time, useAction, useLoad } from "../ui.js"

/** The accounts (for lists and pickers). */
export const useAccounts = (search = "") =>
  useLoad<ReadonlyArray<any>>(() => api("GET", `/accounts${search ? `?search=${encodeURIComponent(search)}` : ""}`), [
    search
  ])

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
  const [name, setName] = useState("")
  const [email, setEmail] = useState("")
  const [country, setCountry] = useState("TZ")
  const [created, setCreated] = useState<string | null>(null)
  const action = useAction()
  return (
    <>
      <h1>Accounts</h1>
      <Field label="Search">
        <input type="search" value={search} onChange={(e) => setSearch(e.currentTarget.value)} />
      </Field>
      <Loading loaded={accounts} />
      <table>
        <Head cols={["Name", "Email", "Status", "Created"]} />
        <tbody>
          {(accounts.data ?? []).map((a) => (
            <tr key={a.uid}>
              <td>
                <Link to={`/accounts/${a.uid}`}>{a.name}</Link>
              </td>
              <td>{a.email}</td>
              <td>
                <Status status={a.active ? "active" : "suspended"} />
              </td>
              <td>
                <Time iso={a.created_at} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {may("accounts.manage") && (
        <Section title="Create an account">
          <form
            onSubmit={(e) => {
              e.preventDefault()
              void action.run(async () => {
                const a = await api("POST", "/accounts", { name, email, country })
                setCreated(`${a.name} created; ${a.owner_invitation?.email ?? email} is invited to the portal.`)
                setName("")
                setEmail("")
                accounts.reload()
              })
            }}
          >
            <Field label="Account name">
              <input type="text" value={name} onChange={(e) => setName(e.currentTarget.value)} />
            </Field>
            <Field label="Owner email">
              <input type="email" value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
            </Field>
            <Field label="Country">
              <input type="text" value={country} onChange={(e) => setCountry(e.currentTarget.value)} />
            </Field>
            <button type="submit" disabled={action.busy}>Create account</button>
            <ErrorBox error={action.error} />
            {created !== null && <p role="status">{created}</p>}
          </form>
        </Section>
      )}
    </>
  )
}

/** One account, read-only but for suspend and activate. */
export function AccountPage(props: { readonly uid: string }) {
  useContext(SessionContext)
  const may = useMay()
  const detail = useLoad<any>(() => api("GET", `/accounts/${encodeURIComponent(props.uid)}`), [props.uid])
  const action = useAction()
  const d = detail.data
  return (
    <>
      <h1>{d?.account.name ?? "Account"}</h1>
      <Loading loaded={detail} />
      {d !== undefined && (
        <>
          <dl className="facts">
            <div>
              <dt>Email</dt>
              <dd>{d.account.email}</dd>
            </div>
            <div>
              <dt>Status</dt>
              <dd>
                <Status status={d.account.active ? "active" : "suspended"} />
              </dd>
            </div>
            <div>
              <dt>Created</dt>
              <dd>
                <Time iso={d.account.created_at} />
              </dd>
            </div>
          </dl>
          {may("accounts.manage") && (
            <div className="actions">
              {d.account.active
                ? (
                  <button
                    type="button"
                    disabled={action.busy}
                    onClick={() =>
                      void action.run(() => api("POST", `/accounts/${props.uid}/suspend`)).then(detail.reload)}
                  >
                    Suspend account
                  </button>
                )
                : (
                  <button
                    type="button"
                    disabled={action.busy}
                    onClick={() =>
                      void action.run(() => api("POST", `/accounts/${props.uid}/activate`)).then(detail.reload)}
                  >
                    Activate account
                  </button>
                )}
            </div>
          )}
          <ErrorBox error={action.error} />
          <Section title="Wallets">
            <table>
              <Head cols={["Country", "Balance", "Enabled"]} />
              <tbody>
                {d.wallets.map((w: any) => (
                  <tr key={w.wallet_uid}>
                    <td>{w.country}</td>
                    <td>{w.balance}</td>
                    <td>{w.enabled ? "yes" : "no"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Section>
          <Section title="API keys">
            <table>
              <Head cols={["Name", "Prefix", "Mode", "Status", "Last used"]} />
              <tbody>
                {d.api_keys.map((k: any) => (
                  <tr key={k.uid}>
                    <td>{k.name}</td>
                    <td>
                      <code>{k.prefix}</code>
                    </td>
                    <td>{k.mode}</td>
                    <td>
                      <Status status={k.status} />
                    </td>
                    <td>
                      <Time iso={k.last_used_at} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Section>
          <Section title="Sender IDs">
            <table>
              <Head cols={["Sender ID", "Country", "Status"]} />
              <tbody>
                {d.sender_ids.map((s: any) => (
                  <tr key={s.uid}>
                    <td>{s.sender_id}</td>
                    <td>{s.country}</td>
                    <td>
                      <Status status={s.status} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Section>
          <Section title="Recent messages">
            <table>
              <Head cols={["To", "Sender ID", "Status", "Created"]} />
              <tbody>
                {(d.recent_messages?.data ?? []).map((m: any) => (
                  <tr key={m.uid}>
                    <td>{m.recipient ?? m.to}</td>
                    <td>{m.sender_id}</td>
                    <td>
                      <Status status={m.status} />
                    </td>
                    <td>
                      <Time iso={m.queued_at ?? null} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Section>
        </>
      )}
    </>
  )
}

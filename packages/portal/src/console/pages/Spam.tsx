/** Spam rules and opt-outs. */
import { useState } from "react"
import { api } from "../api.js"
import { useMay } from "../session.js"
import { ErrorBox, Field, Head, Loading, Section, Status, useAction, useLoad } from "../ui.js"
import { AccountPicker } from "./Accounts.js"

function OptOuts() {
  const may = useMay()
  const [account, setAccount] = useState("")
  const list = useLoad<ReadonlyArray<any>>(
    () => (account === "" ? Promise.resolve([]) : api("GET", `/accounts/${account}/opt-outs`)),
    [account]
  )
  const [recipient, setRecipient] = useState("")
  const action = useAction()
  return (
    <Section title="Opt-outs">
      <AccountPicker value={account} onChange={setAccount} />
      <ul>
        {(list.data ?? []).map((o) => (
          <li key={o.recipient}>
            {o.recipient}
            {may("opt_outs.manage") && (
              <button
                type="button"
                className="link"
                onClick={() =>
                  void action.run(() =>
                    api("DELETE", `/accounts/${account}/opt-outs/${encodeURIComponent(o.recipient)}`)
                  ).then(list.reload)}
              >
                Remove {o.recipient}
              </button>
            )}
          </li>
        ))}
      </ul>
      {account !== "" && may("opt_outs.manage") && (
        <form
          onSubmit={(e) => {
            e.preventDefault()
            void action.run(() => api("POST", `/accounts/${account}/opt-outs`, { recipient })).then(() => {
              setRecipient("")
              list.reload()
            })
          }}
        >
          <Field label="Recipient">
            <input type="tel" value={recipient} onChange={(e) => setRecipient(e.currentTarget.value)} />
          </Field>
          <button type="submit" disabled={action.busy}>Add opt-out</button>
        </form>
      )}
      <ErrorBox error={action.error} />
    </Section>
  )
}

/** The Spam rules and opt-outs page. */
export function SpamPage() {
  const may = useMay()
  const rules = useLoad<ReadonlyArray<any>>(() => api("GET", "/spam-rules"), [])
  const action = useAction()
  const [kind, setKind] = useState("blocked_phrase")
  const [pattern, setPattern] = useState("")
  return (
    <>
      <h1>Spam rules and opt-outs</h1>
      <Loading loaded={rules} />
      <ErrorBox error={action.error} />
      <table>
        <Head cols={["Kind", "Pattern", "Scope", "Status", ""]} />
        <tbody>
          {(rules.data ?? []).map((r) => (
            <tr key={r.uid}>
              <td>{r.kind}</td>
              <td>{r.pattern}</td>
              <td>{r.account_uid ?? "all accounts"}</td>
              <td>
                <Status status={r.enabled === false ? "disabled" : "enabled"} />
              </td>
              <td>
                {may("spam_rules.manage") && (
                  <button
                    type="button"
                    className="link"
                    onClick={() =>
                      void action.run(() =>
                        api("POST", `/spam-rules/${r.uid}/${r.enabled === false ? "enable" : "disable"}`)
                      )
                        .then(rules.reload)}
                  >
                    {r.enabled === false ? `Enable ${r.pattern}` : `Disable ${r.pattern}`}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {may("spam_rules.manage") && (
        <Section title="Add a spam rule">
          <form
            onSubmit={(e) => {
              e.preventDefault()
              void action.run(() => api("POST", "/spam-rules", { kind, pattern })).then(() => {
                setPattern("")
                rules.reload()
              })
            }}
          >
            <Field label="Kind">
              <select value={kind} onChange={(e) => setKind(e.currentTarget.value)}>
                <option value="blocked_phrase">blocked phrase</option>
                <option value="blocked_domain">blocked domain</option>
              </select>
            </Field>
            <Field label="Pattern">
              <input type="text" value={pattern} onChange={(e) => setPattern(e.currentTarget.value)} />
            </Field>
            <button type="submit" disabled={action.busy}>Add rule</button>
          </form>
        </Section>
      )}
      <OptOuts />
    </>
  )
}

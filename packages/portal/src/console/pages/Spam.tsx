/** Spam rules and opt-outs. */
import { useState } from "react"
import { api } from "../api.js"
import { ActionForm, Input, Select, Toggle, useAction, useForm } from "../forms.js"
import { useMay } from "../session.js"
import { ErrorBox, Listing, Section, Status, useLoad } from "../ui.js"
import type { OptOutView, SpamRuleView } from "../views.js"
import { AccountPicker } from "./Accounts.js"

function OptOuts() {
  const may = useMay()
  const [account, setAccount] = useState("")
  const list = useLoad<ReadonlyArray<OptOutView>>(
    () => (account === "" ? Promise.resolve([]) : api("GET", `/accounts/${account}/opt-outs`)),
    [account]
  )
  const form = useForm({ recipient: "" })
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
        <ActionForm
          submit="Add opt-out"
          run={async () => {
            await api("POST", `/accounts/${account}/opt-outs`, form.values)
            form.reset("recipient")
            list.reload()
          }}
        >
          <Input label="Recipient" type="tel" {...form.bind("recipient")} />
        </ActionForm>
      )}
      <ErrorBox error={action.error} />
    </Section>
  )
}

/** The Spam rules and opt-outs page. */
export function SpamPage() {
  const may = useMay()
  const rules = useLoad<ReadonlyArray<SpamRuleView>>(() => api("GET", "/spam-rules"), [])
  const action = useAction()
  const form = useForm({ kind: "blocked_phrase", pattern: "" })
  return (
    <>
      <Listing title="Spam rules and opt-outs" loaded={rules} error={action.error} rowKey={(r) => r.uid}>
        {[
          ["Kind", (r) => r.kind],
          ["Pattern", (r) => r.pattern],
          ["Scope", (r) => r.account_uid ?? "all accounts"],
          ["Status", (r) => <Status status={r.enabled === false ? "disabled" : "enabled"} />],
          ["", (r) =>
            may("spam_rules.manage") && (
              <Toggle
                action={action}
                className="link"
                on={r.enabled !== false}
                path={`/spam-rules/${r.uid}`}
                name={r.pattern}
                then={rules.reload}
              />
            )]
        ]}
      </Listing>
      {may("spam_rules.manage") && (
        <Section title="Add a spam rule">
          <ActionForm
            submit="Add rule"
            run={async () => {
              await api("POST", "/spam-rules", form.values)
              form.reset("pattern")
              rules.reload()
            }}
          >
            <Select
              label="Kind"
              options={[["blocked_phrase", "blocked phrase"], ["blocked_domain", "blocked domain"]]}
              {...form.bind("kind")}
            />
            <Input label="Pattern" {...form.bind("pattern")} />
          </ActionForm>
        </Section>
      )}
      <OptOuts />
    </>
  )
}

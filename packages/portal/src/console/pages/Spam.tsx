/** Spam rules and opt-outs. */
import { useState } from "react"
import { api } from "../api.js"
import { ActionForm, Input, Select, Toggle, useAction, useForm } from "../forms.js"
import { useMay } from "../session.js"
import { ErrorBox, Listing, Section, Status, useLoad, useT } from "../ui.js"
import type { OptOutView, SpamRuleView } from "../views.js"
import { AccountPicker } from "./Accounts.js"

function OptOuts() {
  const t = useT()
  const may = useMay()
  const [account, setAccount] = useState("")
  const list = useLoad<ReadonlyArray<OptOutView>>(
    () => (account === "" ? Promise.resolve([]) : api("GET", `/accounts/${account}/opt-outs`)),
    [account]
  )
  const form = useForm({ recipient: "" })
  const action = useAction()
  return (
    <Section title={t("Opt-outs")}>
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
                {t("Remove {recipient}", { recipient: o.recipient })}
              </button>
            )}
          </li>
        ))}
      </ul>
      {account !== "" && may("opt_outs.manage") && (
        <ActionForm
          submit={t("Add opt-out")}
          run={async () => {
            await api("POST", `/accounts/${account}/opt-outs`, form.values)
            form.reset("recipient")
            list.reload()
          }}
        >
          <Input label={t("Recipient")} type="tel" {...form.bind("recipient")} />
        </ActionForm>
      )}
      <ErrorBox error={action.error} />
    </Section>
  )
}

/** The kinds of spam rule by the name an operator knows them by (English keys of sw.ts). */
const RULE_KINDS: Readonly<Record<string, string>> = {
  blocked_phrase: "blocked phrase",
  blocked_domain: "blocked domain",
  blocked_url_shortener: "blocked URL shortener",
  builtin_phrase: "built-in phrase"
}

/** The Spam rules and opt-outs page. */
export function SpamPage() {
  const t = useT()
  const may = useMay()
  const rules = useLoad<ReadonlyArray<SpamRuleView>>(() => api("GET", "/spam-rules"), [])
  const action = useAction()
  const form = useForm({ kind: "blocked_phrase", pattern: "" })
  return (
    <>
      <Listing title={t("Spam rules and opt-outs")} loaded={rules} error={action.error} rowKey={(r) => r.uid}>
        {[
          [t("Kind"), (r) => t(RULE_KINDS[r.kind] ?? r.kind)],
          [t("Pattern"), (r) => <span translate="no">{r.pattern}</span>],
          [t("Scope"), (r) => r.account_uid ?? t("all accounts")],
          [t("Status"), (r) => <Status status={r.enabled === false ? "disabled" : "enabled"} />],
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
        <Section title={t("Add a spam rule")}>
          <ActionForm
            submit={t("Add rule")}
            run={async () => {
              await api("POST", "/spam-rules", form.values)
              form.reset("pattern")
              rules.reload()
            }}
          >
            <Select
              label={t("Kind")}
              options={[["blocked_phrase", t("blocked phrase")], ["blocked_domain", t("blocked domain")]]}
              {...form.bind("kind")}
            />
            <Input label={t("Pattern")} {...form.bind("pattern")} />
          </ActionForm>
        </Section>
      )}
      <OptOuts />
    </>
  )
}

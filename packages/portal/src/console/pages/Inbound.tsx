/**
 * Inbound numbers: the addresses assigned to accounts (a long number, a dedicated short code, or a
 * keyword with aliases on a shared short code) — list, assign, change, remove — and the unrouted
 * messages (sent to no assigned address), with a button that starts assigning their number. A
 * refusal is said in the operator's words (`problemOf`), never the API's text. Changes need
 * `accounts.manage`.
 */
import { useState } from "react"
import { Pager } from "../../shared/table.js"
import type { ApiError } from "../api.js"
import { api } from "../api.js"
import { Input, useAction, useForm } from "../forms.js"
import { useMay } from "../session.js"
import { Loading, Name, Section, Table, Time, useLoad, useT } from "../ui.js"
import type { InboundNumberView, UnroutedPageView } from "../views.js"
import { AccountPicker, useAccounts } from "./Accounts.js"

type Translate = ReturnType<typeof useT>

/** What went wrong, in the operator's words: a conflict, a field, a vanished account or assignment. */
const problemOf = (t: Translate, e: ApiError): string => {
  if (e.status === 409) {
    return t(
      "This number is already taken: by an account that has it alone, or with this keyword or one of its aliases. Remove that assignment first, or choose another keyword."
    )
  }
  if (e.status === 403) return t("Your role may not change inbound numbers.")
  if (e.status === 404) return t("That account or assignment no longer exists. Reload the page.")
  const fields = Object.keys(e.errors ?? {})
  const said: Array<string> = []
  if (fields.includes("number")) {
    said.push(t("Enter the number in international format (+ and 8 to 15 digits) or a short code of 3 to 8 digits."))
  }
  if (fields.includes("keyword")) {
    said.push(t("A keyword is one word of letters and digits (at most 20), and not an opt-out word such as STOP."))
  }
  if (fields.includes("aliases")) {
    said.push(t("Aliases are words like the keyword, and need a keyword."))
  }
  return said.length > 0 ? said.join(" ") : t("The change was not saved. Try again.")
}

/** The refusal of the last action, if any. */
function Problem(props: { readonly error: ApiError | undefined }) {
  const t = useT()
  if (props.error === undefined) return null
  return <p role="alert" className="error">{problemOf(t, props.error)}</p>
}

/** What the last change did: an English template of sw.ts and its number (said in the current language). */
interface Said {
  readonly text: string
  readonly number: string
}

const emptyAssignment = { number: "", keyword: "", aliases: "" }

/** The assignment form: new (with an account) or a change of `editing`. */
function AssignmentForm(props: {
  readonly editing: InboundNumberView | null
  readonly number: string
  readonly onDone: (said: Said) => void
  readonly onCancel: () => void
}) {
  const t = useT()
  const e = props.editing
  const form = useForm(
    e === null
      ? { ...emptyAssignment, number: props.number }
      : { number: e.number, keyword: e.keyword ?? "", aliases: e.aliases.join(", ") }
  )
  const [account, setAccount] = useState("")
  const action = useAction()
  const [missing, setMissing] = useState(false)
  const submit = () => {
    if (e === null && account === "") return setMissing(true)
    setMissing(false)
    void action.run(async () => {
      const saved = e === null
        ? await api<InboundNumberView>("POST", "/inbound-numbers", { ...form.values, account_uid: account })
        : await api<InboundNumberView>("PATCH", `/inbound-numbers/${e.uid}`, form.values)
      props.onDone({ text: e === null ? "{number} assigned." : "{number} changed.", number: saved.number })
    })
  }
  return (
    <Section title={e === null ? t("Assign a number") : t("Change {number}", { number: e.number })}>
      <form
        onSubmit={(ev) => {
          ev.preventDefault()
          submit()
        }}
      >
        {e === null && <AccountPicker value={account} onChange={setAccount} />}
        <Input
          label={t("Number or short code")}
          hint={t("+255… for a long number, 3 to 8 digits for a short code.")}
          inputMode="tel"
          required
          {...form.bind("number")}
        />
        <Input
          label={t("Keyword (optional)")}
          hint={t("Empty: the whole number is the account's. A keyword shares a short code.")}
          {...form.bind("keyword")}
        />
        <Input
          label={t("Aliases")}
          hint={t("Other words for the keyword, separated by commas.")}
          {...form.bind("aliases")}
        />
        <div className="actions">
          <button type="submit" disabled={action.busy}>{e === null ? t("Assign") : t("Save changes")}</button>
          {e !== null && <button type="button" onClick={props.onCancel}>{t("Cancel")}</button>}
        </div>
        {missing && <p role="alert" className="error">{t("Choose an account.")}</p>}
        <Problem error={action.error} />
      </form>
    </Section>
  )
}

/** An address that can be assigned (a number or a short code; not a sender ID's name). */
const ASSIGNABLE = /^\+?\d{3,15}$/

/** Messages to no assigned address, newest first, with filters and pages. */
function Unrouted(props: { readonly onAssign: (number: string) => void; readonly manage: boolean }) {
  const t = useT()
  const [filter, setFilter] = useState({ from: "", to: "" })
  const [page, setPage] = useState(1)
  const query = new URLSearchParams({ ...filter, page: String(page) }).toString()
  const loaded = useLoad<UnroutedPageView>(() => api("GET", `/inbound/unrouted?${query}`), [query])
  const meta = loaded.data?.meta
  const set = (name: "from" | "to") => (ev: { readonly currentTarget: { readonly value: string } }) => {
    setFilter((f) => ({ ...f, [name]: ev.currentTarget.value.trim() }))
    setPage(1)
  }
  return (
    <Section title={t("Unrouted messages")}>
      <p>{t("Messages sent to a number no account has. They are kept: assign the number to route what comes next.")}</p>
      <div className="filters">
        <Input label={t("From (handset)")} inputMode="tel" value={filter.from} onChange={set("from")} />
        <Input label={t("To (number)")} inputMode="tel" value={filter.to} onChange={set("to")} />
      </div>
      <Loading loaded={loaded} />
      {meta !== undefined && meta.total === 0 && <p>{t("No unrouted messages.")}</p>}
      {meta !== undefined && meta.total > 0 && (
        <Table
          caption={t("Unrouted messages ({n})", { n: meta.total })}
          rows={loaded.data?.messages ?? []}
          rowKey={(m) => m.uid}
          columns={[
            [t("From (handset)"), (m) => <Name>{m.from}</Name>],
            [t("To (number)"), (m) => <Name>{m.to}</Name>],
            [t("Text"), (m) => <span className="break" translate="no">{m.text}</span>],
            [t("Received"), (m) => <Time iso={m.received_at} />],
            props.manage && ["", (m) =>
              ASSIGNABLE.test(m.to) && (
                <button
                  type="button"
                  className="link"
                  onClick={() => props.onAssign(m.to)}
                >
                  {t("Assign {number}", { number: m.to })}
                </button>
              )]
          ]}
        />
      )}
      {meta !== undefined && <Pager page={meta.current_page} last={meta.last_page} onPage={setPage} t={t} />}
    </Section>
  )
}

/** The Inbound numbers page. */
export function InboundPage() {
  const t = useT()
  const manage = useMay()("accounts.manage")
  const [version, setVersion] = useState(0)
  const numbers = useLoad<ReadonlyArray<InboundNumberView>>(() => api("GET", "/inbound-numbers"), [version])
  const accounts = useAccounts()
  const accountName = (uid: string) => accounts.data?.find((a) => a.uid === uid)?.name ?? uid
  const [editing, setEditing] = useState<InboundNumberView | null>(null)
  const [prefill, setPrefill] = useState({ number: "", key: 0 })
  const [said, setSaid] = useState<Said | null>(null)
  const remove = useAction()
  const done = (change: Said) => {
    setSaid(change)
    setEditing(null)
    setPrefill((p) => ({ number: "", key: p.key + 1 }))
    setVersion((v) => v + 1)
  }
  const removeNumber = (n: InboundNumberView) => {
    const what = n.keyword === null ? n.number : `${n.number} ${n.keyword}`
    if (
      !window.confirm(t("Remove {number} from {account}? Its messages will be unrouted.", {
        number: what,
        account: accountName(n.account_uid)
      }))
    ) return
    void remove.run(async () => {
      await api("DELETE", `/inbound-numbers/${n.uid}`)
      done({ text: "{number} removed.", number: what })
    })
  }
  return (
    <>
      <h1>{t("Inbound numbers")}</h1>
      <p>{t("Numbers and keywords whose messages reach an account: its customers' replies and opt-out words.")}</p>
      <Loading loaded={numbers} />
      {said !== null && <p role="status">{t(said.text, { number: said.number })}</p>}
      <Problem error={remove.error} />
      {numbers.data !== undefined && numbers.data.length === 0 && <p>{t("No number is assigned yet.")}</p>}
      {numbers.data !== undefined && numbers.data.length > 0 && (
        <Table
          caption={t("Assigned numbers")}
          rows={numbers.data}
          rowKey={(n) => n.uid}
          columns={[
            [t("Number"), (n) => <Name>{n.number}</Name>],
            [t("Keyword"), (n) => n.keyword === null ? t("the whole number") : <Name>{n.keyword}</Name>],
            [t("Aliases"), (n) => <Name>{n.aliases.join(", ")}</Name>],
            [t("Account"), (n) => <Name>{accountName(n.account_uid)}</Name>],
            [t("Changed"), (n) => <Time iso={n.updated_at} />],
            manage && [t("Actions"), (n) => (
              <div className="actions">
                <button
                  type="button"
                  onClick={() => {
                    setEditing(n)
                    document.getElementById("assign")?.scrollIntoView()
                  }}
                >
                  {t("Change {number}", { number: n.number })}
                </button>
                <button type="button" disabled={remove.busy} onClick={() => removeNumber(n)}>
                  {t("Remove {number}", { number: n.number })}
                </button>
              </div>
            )]
          ]}
        />
      )}
      {manage && (
        <div id="assign">
          <AssignmentForm
            key={editing?.uid ?? `new-${prefill.key}`}
            editing={editing}
            number={prefill.number}
            onDone={done}
            onCancel={() => setEditing(null)}
          />
        </div>
      )}
      <Unrouted
        manage={manage}
        onAssign={(number) => {
          setEditing(null)
          setPrefill((p) => ({ number, key: p.key + 1 }))
          document.getElementById("assign")?.scrollIntoView()
        }}
      />
    </>
  )
}

/**
 * Audit log: every operator action (who, what, before and after, when, from where), searchable.
 * Who and what read as names: an operator's e-mail, "admin API", a customer acting in the portal by
 * their e-mail; a target by its kind and name (the server's `target_name`: an account's name, a
 * carrier's, an operator's e-mail), with the bare id kept small beside it.
 */
import { useState } from "react"
import { api } from "../api.js"
import { Input } from "../forms.js"
import { Loading, Table, Time, useLoad, useT } from "../ui.js"
import type { AuditEntryView } from "../views.js"

/** The kinds of target, by the name an operator knows them by (English keys of sw.ts). */
const TARGET_KINDS: Readonly<Record<string, string>> = {
  account: "Account",
  provider: "Provider",
  operator: "Operator",
  api_key: "API key",
  sender_id: "Sender ID",
  spam_rule: "Spam rule",
  webhook: "Webhook",
  market: "Market"
}

type Translate = ReturnType<typeof useT>

/** Who acted, in words: an operator by e-mail, the admin API, the command line, a portal user, the system. */
export const actorText = (t: Translate, e: Pick<AuditEntryView, "actor_kind" | "actor_name">): string => {
  if (e.actor_name.startsWith("portal:")) {
    return t("{email} (customer, in the portal)", { email: e.actor_name.slice(7) })
  }
  switch (e.actor_kind) {
    case "operator":
      return t("{email} (operator)", { email: e.actor_name })
    case "admin-token":
      return t("Admin API (token)")
    case "cli":
      return t("Command line ({user})", { user: e.actor_name.replace(/^cli:/, "") })
    default:
      return t("Tuma itself")
  }
}

function Target(props: { readonly target: string | null; readonly name: string | null | undefined }) {
  const t = useT()
  if (props.target === null) return null
  const at = props.target.indexOf(":")
  const kind = at < 0 ? undefined : TARGET_KINDS[props.target.slice(0, at)]
  if (kind === undefined || props.name === null || props.name === undefined) return <code>{props.target}</code>
  return (
    <>
      {t(kind)}: <strong translate="no">{props.name}</strong> <code className="id">{props.target.slice(at + 1)}</code>
    </>
  )
}

/** The Audit log page. */
export function AuditLogPage() {
  const t = useT()
  const [actor, setActor] = useState("")
  const [action, setAction] = useState("")
  const [target, setTarget] = useState("")
  const [before, setBefore] = useState<string | undefined>(undefined)
  const query = new URLSearchParams()
  if (actor.trim() !== "") query.set("actor", actor.trim())
  if (action.trim() !== "") query.set("action", action.trim())
  if (target.trim() !== "") query.set("target", target.trim())
  if (before !== undefined) query.set("before", before)
  query.set("limit", "50")
  const entries = useLoad<ReadonlyArray<AuditEntryView>>(() => api("GET", `/audit-log?${query}`), [query.toString()])
  const rows = entries.data ?? []
  return (
    <>
      <h1>{t("Audit log")}</h1>
      <div className="filters">
        {([["Actor", actor, setActor], ["Action", action, setAction], ["Target", target, setTarget]] as const).map((
          [label, value, set]
        ) => (
          <Input
            key={label}
            label={t(label)}
            type="search"
            value={value}
            onChange={(e) => {
              setBefore(undefined)
              set(e.currentTarget.value)
            }}
          />
        ))}
      </div>
      <Loading loaded={entries} />
      <Table
        rows={rows}
        rowKey={(e) => e.id}
        columns={[
          [t("When"), (e) => <Time iso={e.at} />],
          [t("Actor"), (e) => actorText(t, e)],
          [t("Action"), (e) => <code>{e.action}</code>],
          [t("Target"), (e) => <Target target={e.target} name={e.target_name} />],
          [t("From"), (e) => e.ip ?? ""],
          [t("Change"), (e) => (
            <details>
              <summary>{t("Before and after")}</summary>
              <pre className="body" translate="no">{JSON.stringify({ before: e.before, after: e.after }, null, 2)}</pre>
            </details>
          )]
        ]}
      />
      {rows.length === 50 && (
        <button type="button" onClick={() => setBefore(rows[rows.length - 1].id)}>{t("Older entries")}</button>
      )}
    </>
  )
}

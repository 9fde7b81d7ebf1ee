/** Audit log: every operator action (who, what, before and after, when, from where), searchable. */
import { useState } from "react"
import { api } from "../api.js"
import { Input } from "../forms.js"
import { Loading, Table, Time, useLoad } from "../ui.js"
import type { AuditEntryView } from "../views.js"

/** The Audit log page. */
export function AuditLogPage() {
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
      <h1>Audit log</h1>
      <div className="filters">
        {([["Actor", actor, setActor], ["Action", action, setAction], ["Target", target, setTarget]] as const).map((
          [label, value, set]
        ) => (
          <Input
            key={label}
            label={label}
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
          ["When", (e) => <Time iso={e.at} />],
          ["Actor", (e) => `${e.actor_name} (${e.actor_kind})`],
          ["Action", (e) => e.action],
          ["Target", (e) => e.target ?? ""],
          ["From", (e) => e.ip ?? ""],
          ["Change", (e) => (
            <details>
              <summary>Before and after</summary>
              <pre className="body">{JSON.stringify({ before: e.before, after: e.after }, null, 2)}</pre>
            </details>
          )]
        ]}
      />
      {rows.length === 50 && (
        <button type="button" onClick={() => setBefore(rows[rows.length - 1].id)}>Older entries</button>
      )}
    </>
  )
}

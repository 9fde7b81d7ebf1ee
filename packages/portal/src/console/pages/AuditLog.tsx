/** Audit log: every operator action (who, what, before and after, when, from where), searchable. */
import { useState } from "react"
import { api } from "../api.js"
import { Field, Head, Loading, Time, useLoad } from "../ui.js"

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
  const entries = useLoad<ReadonlyArray<any>>(() => api("GET", `/audit-log?${query}`), [query.toString()])
  const rows = entries.data ?? []
  return (
    <>
      <h1>Audit log</h1>
      <div className="filters">
        <Field label="Actor">
          <input
            type="search"
            value={actor}
            onChange={(e) => (setBefore(undefined), setActor(e.currentTarget.value))}
          />
        </Field>
        <Field label="Action">
          <input
            type="search"
            value={action}
            onChange={(e) => (setBefore(undefined), setAction(e.currentTarget.value))}
          />
        </Field>
        <Field label="Target">
          <input
            type="search"
            value={target}
            onChange={(e) => (setBefore(undefined), setTarget(e.currentTarget.value))}
          />
        </Field>
      </div>
      <Loading loaded={entries} />
      <table>
        <Head cols={["When", "Actor", "Action", "Target", "From", "Change"]} />
        <tbody>
          {rows.map((e) => (
            <tr key={e.id}>
              <td>
                <Time iso={e.at} />
              </td>
              <td>{e.actor_name} ({e.actor_kind})</td>
              <td>{e.action}</td>
              <td>{e.target ?? ""}</td>
              <td>{e.ip ?? ""}</td>
              <td>
                <details>
                  <summary>Before and after</summary>
                  <pre className="body">{JSON.stringify({ before: e.before, after: e.after }, null, 2)}</pre>
                </details>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length === 50 && (
        <button type="button" onClick={() => setBefore(rows[rows.length - 1].id)}>Older entries</button>
      )}
    </>
  )
}

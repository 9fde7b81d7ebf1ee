/** Operators (admins only): invite by e-mail with a role, change roles, disable and enable. */
import { useState } from "react"
import { api } from "../api.js"
import { ErrorBox, Field, Head, Loading, Section, Status, Time, useAction, useLoad } from "../ui.js"

/** The Operators page. */
export function OperatorsPage() {
  const operators = useLoad<ReadonlyArray<any>>(() => api("GET", "/operators"), [])
  const action = useAction()
  const [email, setEmail] = useState("")
  const [role, setRole] = useState("reviewer")
  const [invited, setInvited] = useState<string | null>(null)
  return (
    <>
      <h1>Operators</h1>
      <Loading loaded={operators} />
      <ErrorBox error={action.error} />
      <table>
        <Head cols={["Email", "Role", "Status", "Two-factor", "Last sign-in", ""]} />
        <tbody>
          {(operators.data ?? []).map((o) => (
            <tr key={o.uid}>
              <td>{o.email}</td>
              <td>{o.role}</td>
              <td>
                <Status status={o.status} />
              </td>
              <td>{o.totp_enrolled ? "enrolled" : "—"}</td>
              <td>
                <Time iso={o.last_sign_in_at} />
              </td>
              <td>
                <button
                  type="button"
                  className="link"
                  onClick={() =>
                    void action.run(() =>
                      api("POST", `/operators/${o.uid}/${o.status === "disabled" ? "enable" : "disable"}`)
                    )
                      .then(operators.reload)}
                >
                  {o.status === "disabled" ? `Enable ${o.email}` : `Disable ${o.email}`}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Section title="Invite an operator">
        <form
          onSubmit={(e) => {
            e.preventDefault()
            void action.run(async () => {
              const o = await api("POST", "/operators", { email, role })
              setInvited(`${o.email} is invited as ${o.role}.`)
              setEmail("")
              operators.reload()
            })
          }}
        >
          <Field label="Operator email">
            <input type="email" value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
          </Field>
          <Field label="Role">
            <select value={role} onChange={(e) => setRole(e.currentTarget.value)}>
              <option value="admin">admin</option>
              <option value="reviewer">reviewer</option>
              <option value="support">support</option>
            </select>
          </Field>
          <button type="submit" disabled={action.busy}>Invite operator</button>
          {invited !== null && <p role="status">{invited}</p>}
        </form>
      </Section>
    </>
  )
}

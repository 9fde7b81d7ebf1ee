/** Members and invitations: invite by e-mail, change a role, remove (owners); read (members). */
import type { PortalRole } from "@tuma/http/PortalApi"
import { useState } from "react"
import type { FormEvent } from "react"
import { call } from "../api.js"
import { useI18n } from "../i18n.js"
import { useIsOwner, useSession } from "../session.js"
import { ErrorBox, Field, Loading, PageTitle, Time, useAction, useLoad } from "../ui.js"

export function TeamPage() {
  const { t } = useI18n()
  const owner = useIsOwner()
  const me = useSession().session.user.uid
  const [version, setVersion] = useState(0)
  const team = useLoad(() => call((c) => c.portalAccount.team()), [version])
  const [email, setEmail] = useState("")
  const [role, setRole] = useState<PortalRole>("member")
  const [invited, setInvited] = useState<string>()
  const action = useAction()
  const roleName = (r: string) => (r === "owner" ? t("Owner") : t("Member"))
  const invite = (e: FormEvent) => {
    e.preventDefault()
    void action.run(async () => {
      const r = await call((c) => c.portalAccount.invite({ payload: { email, role } }))
      setInvited(r.data.email)
      setEmail("")
      setVersion((v) => v + 1)
    })
  }
  const act = (f: () => Promise<unknown>) =>
    action.run(async () => {
      await f()
      setVersion((v) => v + 1)
    })
  const d = team.data?.data
  return (
    <>
      <PageTitle>{t("Team")}</PageTitle>
      {owner && (
        <form onSubmit={invite} className="card">
          <h2>{t("Invite someone")}</h2>
          <Field label={t("Email")}>
            <input type="email" required value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
          </Field>
          <Field label={t("Role")}>
            <select value={role} onChange={(e) => setRole(e.currentTarget.value as PortalRole)}>
              <option value="member">{t("Member")}</option>
              <option value="owner">{t("Owner")}</option>
            </select>
          </Field>
          <button type="submit" disabled={action.busy}>{t("Invite")}</button>
          {invited !== undefined && <p role="status">{t("An invitation was sent to {email}.", { email: invited })}</p>}
        </form>
      )}
      <ErrorBox error={action.error} />
      <Loading loaded={team} />
      {d !== undefined && (
        <>
          <table>
            <caption>{t("Members")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("Name")}</th>
                <th scope="col">{t("Email")}</th>
                <th scope="col">{t("Role")}</th>
                <th scope="col">{t("Last sign-in")}</th>
                {owner && <th scope="col">{t("Actions")}</th>}
              </tr>
            </thead>
            <tbody>
              {d.members.map((m) => (
                <tr key={m.uid}>
                  <td>{m.name}</td>
                  <td>{m.email}</td>
                  <td>
                    {owner && m.uid !== me
                      ? (
                        <select
                          aria-label={t("Role of {email}", { email: m.email })}
                          value={m.role}
                          onChange={(e) => {
                            const r = e.currentTarget.value as PortalRole
                            void act(() =>
                              call((c) =>
                                c.portalAccount.changeRole({ path: { user_uid: m.uid }, payload: { role: r } })
                              )
                            )
                          }}
                        >
                          <option value="member">{t("Member")}</option>
                          <option value="owner">{t("Owner")}</option>
                        </select>
                      )
                      : roleName(m.role)}
                  </td>
                  <td>
                    <Time iso={m.last_sign_in_at} />
                  </td>
                  {owner && (
                    <td>
                      {m.uid !== me && (
                        <button
                          type="button"
                          aria-label={t("Remove {email}", { email: m.email })}
                          onClick={() => {
                            if (window.confirm(t("Remove {email} from the account?", { email: m.email }))) {
                              void act(() => call((c) => c.portalAccount.removeMember({ path: { user_uid: m.uid } })))
                            }
                          }}
                        >
                          {t("Remove")}
                        </button>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
          <table>
            <caption>{t("Invitations")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("Email")}</th>
                <th scope="col">{t("Role")}</th>
                <th scope="col">{t("Expires")}</th>
                {owner && <th scope="col">{t("Actions")}</th>}
              </tr>
            </thead>
            <tbody>
              {d.invitations.filter((i) => i.accepted_at === null).map((i) => (
                <tr key={i.uid}>
                  <td>{i.email}</td>
                  <td>{roleName(i.role)}</td>
                  <td>
                    <Time iso={i.expires_at} />
                  </td>
                  {owner && (
                    <td>
                      <button
                        type="button"
                        aria-label={t("Revoke the invitation of {email}", { email: i.email })}
                        onClick={() =>
                          void act(() =>
                            call((c) => c.portalAccount.revokeInvitation({ path: { invitation_uid: i.uid } }))
                          )}
                      >
                        {t("Revoke")}
                      </button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </>
  )
}

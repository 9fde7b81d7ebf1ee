/** Members and invitations: invite by e-mail, change a role, remove (owners); read (members). */
import type { PortalRole } from "@tuma/http/portal/Api"
import { useState } from "react"
import { call } from "../api.js"
import { useI18n } from "../i18n.js"
import { useIsOwner, useSession } from "../session.js"
import { ErrorBox, Field, Loading, PageTitle, Time, useAction, useLoad } from "../ui.js"
import { onSubmit, Table, TextField } from "../widgets.js"

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
  const invite = onSubmit(action, async () => {
    const r = await call((c) => c.portalAccount.invite({ payload: { email, role } }))
    setInvited(r.data.email)
    setEmail("")
    setVersion((v) => v + 1)
  })
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
          <TextField label={t("Email")} type="email" required value={email} onChange={setEmail} />
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
          <Table
            caption={t("Members")}
            rows={d.members}
            rowKey={(m) => m.uid}
            columns={[
              [t("Name"), (m) => <span translate="no">{m.name}</span>],
              [t("Email"), (m) => m.email],
              [t("Role"), (m) =>
                owner && m.uid !== me
                  ? (
                    <select
                      aria-label={t("Role of {email}", { email: m.email })}
                      value={m.role}
                      onChange={(e) => {
                        const r = e.currentTarget.value as PortalRole
                        void act(() =>
                          call((c) => c.portalAccount.changeRole({ path: { user_uid: m.uid }, payload: { role: r } }))
                        )
                      }}
                    >
                      <option value="member">{t("Member")}</option>
                      <option value="owner">{t("Owner")}</option>
                    </select>
                  )
                  : roleName(m.role)],
              [t("Last sign-in"), (m) => <Time iso={m.last_sign_in_at} />],
              owner && [t("Actions"), (m) =>
                m.uid !== me && (
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
                )]
            ]}
          />
          <Table
            caption={t("Invitations")}
            rows={d.invitations.filter((i) => i.accepted_at === null)}
            rowKey={(i) => i.uid}
            columns={[
              [t("Email"), (i) => i.email],
              [t("Role"), (i) => roleName(i.role)],
              [t("Expires"), (i) => <Time iso={i.expires_at} />],
              owner && [t("Actions"), (i) => (
                <button
                  type="button"
                  aria-label={t("Revoke the invitation of {email}", { email: i.email })}
                  onClick={() =>
                    void act(() => call((c) => c.portalAccount.revokeInvitation({ path: { invitation_uid: i.uid } })))}
                >
                  {t("Revoke")}
                </button>
              )]
            ]}
          />
        </>
      )}
    </>
  )
}

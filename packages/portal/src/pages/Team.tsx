/** Members and invitations: invite by e-mail, change a role, remove (owners); read (members). */
import type { PortalRole } from "@tuma/http/portal/Api"
import { useState } from "react"
import { call } from "../api.js"
import { useI18n } from "../i18n.js"
import { useIsOwner, useSession } from "../session.js"
import { CopyField } from "../shared/secrets.js"
import { ErrorBox, Field, Loading, PageTitle, Time, useAction, useLoad } from "../ui.js"
import { onSubmit, Table, TextField } from "../widgets.js"

/** What became of an invitation: mailed, or (no mail sent) its link to copy and pass on. */
function Invited(props: { readonly email: string; readonly link: string | null }) {
  const { t } = useI18n()
  if (props.link === null) return <p role="status">{t("An invitation was sent to {email}.", { email: props.email })}</p>
  return (
    <div role="status">
      <p>
        {t("Invitation created for {email}, but no e-mail was sent: copy the link and give it to them.", {
          email: props.email
        })}
      </p>
      <CopyField
        label={t("Invitation link")}
        value={props.link}
        copy={t("Copy link")}
        done={t("Copied.")}
        failed={t("Select the text and copy it.")}
      />
    </div>
  )
}

export function TeamPage() {
  const { t } = useI18n()
  const owner = useIsOwner()
  const me = useSession().session.user.uid
  const [version, setVersion] = useState(0)
  const team = useLoad(() => call((c) => c.portalAccount.team()), [version])
  const [email, setEmail] = useState("")
  const [role, setRole] = useState<PortalRole>("member")
  const [invited, setInvited] = useState<{ email: string; link: string | null }>()
  const action = useAction()
  const roleName = (r: string) => (r === "owner" ? t("Owner") : t("Member"))
  const invite = onSubmit(action, async () => {
    const r = await call((c) => c.portalAccount.invite({ payload: { email, role } }))
    setInvited({ email: r.data.email, link: r.data.mail === "sent" ? null : r.data.link })
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
          {invited !== undefined && <Invited {...invited} />}
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
              [t("Two-factor"), (m) => (m.two_factor ? t("On") : t("Off"))],
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
          <section aria-labelledby="team-2fa" className="card">
            <h2 id="team-2fa">{t("Two-factor sign-in")}</h2>
            <p>
              {d.require_two_factor
                ? t("Required: every user signs in with a code from an authenticator app.")
                : t("Not required: each user chooses on their Profile.")}
            </p>
            {owner && (
              <button
                type="button"
                disabled={action.busy}
                onClick={() =>
                  void act(() =>
                    call((c) =>
                      c.portalAccount.requireTwoFactor({ payload: { require_two_factor: !d.require_two_factor } })
                    )
                  )}
              >
                {d.require_two_factor
                  ? t("Stop requiring two-factor sign-in")
                  : t("Require two-factor sign-in for everyone")}
              </button>
            )}
          </section>
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

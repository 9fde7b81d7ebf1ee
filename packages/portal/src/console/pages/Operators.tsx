/** Operators (admins only): invite by e-mail with a role, change roles, disable and enable. */
import { useState } from "react"
import { api } from "../api.js"
import { ActionForm, Input, Select, Toggle, useAction, useForm } from "../forms.js"
import { InvitationLink, Listing, Section, Status, Time, useLoad, useT } from "../ui.js"
import type { MailNotice, OperatorView } from "../views.js"
import { mailSaid, roleName } from "../views.js"

/** The Operators page. */
export function OperatorsPage() {
  const t = useT()
  const operators = useLoad<ReadonlyArray<OperatorView>>(() => api("GET", "/operators"), [])
  const action = useAction()
  const form = useForm({ email: "", role: "reviewer" })
  const [link, setLink] = useState<string | null>(null)
  return (
    <>
      <Listing title={t("Operators")} loaded={operators} error={action.error} rowKey={(o) => o.uid}>
        {[
          [t("Email"), (o) => o.email],
          [t("Role"), (o) => t(roleName(o.role))],
          [t("Status"), (o) => <Status status={o.status} />],
          [t("Two-factor"), (o) => (o.totp_enrolled ? t("enrolled") : "—")],
          [t("Last sign-in"), (o) => <Time iso={o.last_sign_in_at} />],
          ["", (o) => (
            <Toggle
              action={action}
              className="link"
              on={o.status !== "disabled"}
              path={`/operators/${o.uid}`}
              name={o.email}
              then={operators.reload}
            />
          )]
        ]}
      </Listing>
      <Section title={t("Invite an operator")}>
        <ActionForm
          submit={t("Invite operator")}
          run={async () => {
            const o = await api<OperatorView & { mail: MailNotice; link: string | null }>(
              "POST",
              "/operators",
              form.values
            )
            form.reset("email")
            operators.reload()
            setLink(o.link)
            const role = t(roleName(o.role))
            return o.link === null
              ? t("{email} is invited as {role} by e-mail.", { email: o.email, role })
              : t("{email} is invited as {role}, {mail}: copy the invitation link below and pass it on.", {
                email: o.email,
                role,
                mail: t(mailSaid(o.mail))
              })
          }}
        >
          <Input label={t("Operator email")} type="email" {...form.bind("email")} />
          <Select
            label={t("Role")}
            options={(["admin", "reviewer", "support"] as const).map((r) => [r, t(roleName(r))])}
            {...form.bind("role")}
          />
        </ActionForm>
        {link !== null && <InvitationLink link={link} />}
      </Section>
    </>
  )
}

/** Operators (admins only): invite by e-mail with a role, change roles, disable and enable. */
import { useState } from "react"
import { api } from "../api.js"
import { ActionForm, Input, Select, Toggle, useAction, useForm } from "../forms.js"
import { InvitationLink, Listing, Section, Status, Time, useLoad } from "../ui.js"
import type { MailNotice, OperatorView } from "../views.js"
import { mailSaid } from "../views.js"

/** The Operators page. */
export function OperatorsPage() {
  const operators = useLoad<ReadonlyArray<OperatorView>>(() => api("GET", "/operators"), [])
  const action = useAction()
  const form = useForm({ email: "", role: "reviewer" })
  const [link, setLink] = useState<string | null>(null)
  return (
    <>
      <Listing title="Operators" loaded={operators} error={action.error} rowKey={(o) => o.uid}>
        {[
          ["Email", (o) => o.email],
          ["Role", (o) => o.role],
          ["Status", (o) => <Status status={o.status} />],
          ["Two-factor", (o) => (o.totp_enrolled ? "enrolled" : "—")],
          ["Last sign-in", (o) => <Time iso={o.last_sign_in_at} />],
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
      <Section title="Invite an operator">
        <ActionForm
          submit="Invite operator"
          run={async () => {
            const o = await api<OperatorView & { mail: MailNotice; link: string | null }>(
              "POST",
              "/operators",
              form.values
            )
            form.reset("email")
            operators.reload()
            setLink(o.link)
            return o.link === null
              ? `${o.email} is invited as ${o.role} by e-mail.`
              : `${o.email} is invited as ${o.role}, ${
                mailSaid(o.mail)
              }: copy the invitation link below and pass it on.`
          }}
        >
          <Input label="Operator email" type="email" {...form.bind("email")} />
          <Select label="Role" options={["admin", "reviewer", "support"]} {...form.bind("role")} />
        </ActionForm>
        {link !== null && <InvitationLink link={link} />}
      </Section>
    </>
  )
}

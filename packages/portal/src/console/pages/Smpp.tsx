/**
 * SMPP: every account's SMPP credentials with the admin API's actions (create — the password shown
 * once —, edit the limits and addresses (SmppEdit.tsx), disable, enable, rotate the password, delete), the live binds of every process with an
 * unbind button (confirmed), and the audit entries of SMPP changes. Changes need `accounts.manage`.
 */
import { useState } from "react"
import { CopyField } from "../../shared/secrets.js"
import { api } from "../api.js"
import { ActionForm, Input, Select, useAction, useForm } from "../forms.js"
import { useMay } from "../session.js"
import { ErrorBox, Loading, Section, Status, Table, Time, useLoad, useT } from "../ui.js"
import type { AuditEntryView, SmppAccountView, SmppAccountWithPassword, SmppBindView } from "../views.js"
import { AccountPicker } from "./Accounts.js"
import { actorText } from "./AuditLog.js"
import { EditCredentials } from "./SmppEdit.js"

/** The audit entries of SMPP credentials and binds, newest first. */
const smppAudit = async (): Promise<ReadonlyArray<AuditEntryView>> => {
  const [accounts, binds] = await Promise.all([
    api<ReadonlyArray<AuditEntryView>>("GET", "/audit-log?action=smpp_account.*&limit=20"),
    api<ReadonlyArray<AuditEntryView>>("GET", "/audit-log?action=smpp_bind.*&limit=20")
  ])
  return [...accounts, ...binds].sort((a, b) => Number(b.id) - Number(a.id)).slice(0, 20)
}

function NewCredentials(props: { readonly onCreated: (c: SmppAccountWithPassword) => void }) {
  const t = useT()
  const [account, setAccount] = useState("")
  const form = useForm({ system_id: "", mode: "live", rate: "50", burst: "", max_binds: "2", allowed_ips: "" })
  return (
    <Section title={t("New SMPP credentials")}>
      <ActionForm
        submit={t("Create SMPP credentials")}
        run={async () => {
          const created = await api<SmppAccountWithPassword>("POST", "/smpp-accounts", {
            ...form.values,
            account_uid: account
          })
          form.reset("system_id")
          props.onCreated(created)
        }}
      >
        <AccountPicker value={account} onChange={setAccount} />
        <Input label={t("System ID")} maxLength={15} {...form.bind("system_id")} />
        <Select label={t("Mode")} options={[["live", t("Live")], ["sandbox", t("Sandbox")]]} {...form.bind("mode")} />
        <Input label={t("Throughput (parts per second)")} inputMode="numeric" {...form.bind("rate")} />
        <Input label={t("Burst")} hint={t("Empty: the rate.")} inputMode="numeric" {...form.bind("burst")} />
        <Input label={t("Max binds")} inputMode="numeric" {...form.bind("max_binds")} />
        <Input
          label={t("Allowed IP addresses")}
          hint={t("Separated by commas; empty: any address.")}
          {...form.bind("allowed_ips")}
        />
      </ActionForm>
    </Section>
  )
}

/** The latest SMPP audit entries (reloaded with the page's `version`). */
function AuditEntries(props: { readonly version: number }) {
  const t = useT()
  const audit = useLoad(smppAudit, [props.version])
  return (
    <Section title={t("SMPP audit entries")}>
      <Loading loaded={audit} />
      <Table
        rows={audit.data ?? []}
        rowKey={(e) => e.id}
        columns={[
          [t("When"), (e) => <Time iso={e.at} />],
          [t("Actor"), (e) => actorText(t, e)],
          [t("Action"), (e) => <code>{e.action}</code>],
          [t("Target"), (e) => e.target ?? ""]
        ]}
      />
    </Section>
  )
}

/** The password of new or rotated credentials, shown once with a copy button. */
function OncePassword(props: { readonly systemId: string; readonly password: string }) {
  const t = useT()
  return (
    <div className="once" role="alert">
      <p>
        <strong>
          {t("Copy the password of {systemId} now: it is shown only once.", { systemId: props.systemId })}
        </strong>
      </p>
      <CopyField
        label={t("SMPP password of {systemId}", { systemId: props.systemId })}
        value={props.password}
        copy={t("Copy password")}
        done={t("Copied.")}
        failed={t("Select the text and copy it.")}
      />
    </div>
  )
}

/** The actions on one account's credentials: edit, rotate the password, disable or enable, delete. */
function CredentialActions(props: {
  readonly account: SmppAccountView
  readonly busy: boolean
  readonly editing: boolean
  readonly onEdit: () => void
  readonly change: (question: string | null, method: string, path: string, shows?: boolean) => void
}) {
  const t = useT()
  const a = props.account
  return (
    <div className="actions">
      <button
        type="button"
        disabled={props.busy}
        aria-expanded={props.editing}
        onClick={props.onEdit}
      >
        {t("Edit {systemId}", { systemId: a.system_id })}
      </button>
      <button
        type="button"
        disabled={props.busy}
        onClick={() =>
          props.change(
            t("Give {systemId} a new password? Binds up stay up.", { systemId: a.system_id }),
            "POST",
            `/smpp-accounts/${a.uid}/rotate-password`,
            true
          )}
      >
        {t("Rotate password of {systemId}", { systemId: a.system_id })}
      </button>
      {a.status === "active"
        ? (
          <button
            type="button"
            disabled={props.busy}
            onClick={() =>
              props.change(
                t("Disable {systemId}? Its binds are closed.", { systemId: a.system_id }),
                "POST",
                `/smpp-accounts/${a.uid}/disable`
              )}
          >
            {t("Disable {systemId}", { systemId: a.system_id })}
          </button>
        )
        : (
          <button
            type="button"
            disabled={props.busy}
            onClick={() => props.change(null, "POST", `/smpp-accounts/${a.uid}/enable`)}
          >
            {t("Enable {systemId}", { systemId: a.system_id })}
          </button>
        )}
      <button
        type="button"
        className="danger"
        disabled={props.busy}
        onClick={() =>
          props.change(
            t("Delete {systemId}? Its binds are closed and its pending receipts dropped.", {
              systemId: a.system_id
            }),
            "DELETE",
            `/smpp-accounts/${a.uid}`
          )}
      >
        {t("Delete {systemId}", { systemId: a.system_id })}
      </button>
    </div>
  )
}

/** The SMPP page. */
export function SmppPage() {
  const t = useT()
  const may = useMay()
  const manage = may("accounts.manage")
  const [version, setVersion] = useState(0)
  const accounts = useLoad<ReadonlyArray<SmppAccountView>>(() => api("GET", "/smpp-accounts"), [version])
  const binds = useLoad<ReadonlyArray<SmppBindView>>(() => api("GET", "/smpp-binds"), [version])
  const [password, setPassword] = useState<{ readonly systemId: string; readonly password: string } | null>(null)
  const [editing, setEditing] = useState<string | null>(null)
  const [saved, setSaved] = useState<string | null>(null)
  const action = useAction()
  const reload = () => setVersion((v) => v + 1)
  const change = (question: string | null, method: string, path: string, shows = false) => {
    if (question !== null && !window.confirm(question)) return
    void action.run(async () => {
      const r = await api<SmppAccountWithPassword>(method, path)
      if (shows) setPassword({ systemId: r.system_id, password: r.password })
      reload()
    })
  }
  const editingAccount = (accounts.data ?? []).find((a) => a.uid === editing)
  const liveOf = (a: SmppAccountView) => (binds.data ?? []).filter((b) => b.smpp_account_uid === a.uid).length
  return (
    <>
      <h1>{t("SMPP")}</h1>
      <Loading loaded={accounts} />
      <ErrorBox error={action.error} />
      {password !== null && <OncePassword {...password} />}
      <Table
        caption={t("SMPP credentials")}
        rows={accounts.data ?? []}
        rowKey={(a) => a.uid}
        columns={[
          [t("System ID"), (a) => <code>{a.system_id}</code>],
          [t("Account"), (a) => <code>{a.account_uid}</code>],
          [t("Mode"), (a) => t(a.mode === "live" ? "Live" : "Sandbox")],
          [t("Throughput"), (a) => t("{rate}/s, burst {burst}", a.throughput)],
          [t("Max binds"), (a) => a.max_binds],
          [t("Allowed IPs"), (a) => a.allowed_ips.length === 0 ? t("any") : a.allowed_ips.join(", ")],
          [t("Status"), (a) => <Status status={a.status} />],
          [t("Live binds"), liveOf],
          manage && [t("Actions"), (a) => (
            <CredentialActions
              account={a}
              busy={action.busy}
              editing={editing === a.uid}
              onEdit={() => {
                setSaved(null)
                setEditing(a.uid)
              }}
              change={change}
            />
          )]
        ]}
      />
      {saved !== null && <p role="status">{t("The settings of {systemId} are saved.", { systemId: saved })}</p>}
      {manage && editingAccount !== undefined && (
        <EditCredentials
          key={editingAccount.uid}
          account={editingAccount}
          onDone={(done) => {
            setEditing(null)
            if (done !== null) {
              setSaved(done.system_id)
              reload()
            }
          }}
        />
      )}
      {manage && (
        <NewCredentials
          onCreated={(c) => {
            setPassword({ systemId: c.system_id, password: c.password })
            reload()
          }}
        />
      )}
      <Section title={t("Live binds")}>
        <Loading loaded={binds} />
        <Table
          rows={binds.data ?? []}
          rowKey={(b) => b.uid}
          columns={[
            [t("System ID"), (b) => <code>{b.system_id}</code>],
            [t("Bind type"), (b) => <code translate="no">{b.bind_type}</code>],
            [t("Remote address"), (b) => <code>{b.remote_address}</code>],
            [t("Since"), (b) => <Time iso={b.since} />],
            [t("In flight"), (b) => b.in_flight],
            [t("Submits/s (last minute)"), (b) => b.submit_rate],
            manage && [t("Actions"), (b) =>
              b.unbind_requested_at !== null ? t("Unbinding…") : (
                <button
                  type="button"
                  disabled={action.busy}
                  onClick={() =>
                    change(
                      t("Unbind {systemId} from {address}? The ESME is sent unbind and disconnected.", {
                        systemId: b.system_id,
                        address: b.remote_address
                      }),
                      "DELETE",
                      `/smpp-binds/${b.uid}`
                    )}
                >
                  {t("Unbind {systemId} from {address}", { systemId: b.system_id, address: b.remote_address })}
                </button>
              )]
          ]}
        />
        {binds.data !== undefined && binds.data.length === 0 && <p>{t("Nothing is bound now.")}</p>}
        <button type="button" onClick={reload}>{t("Refresh")}</button>
      </Section>
      <AuditEntries version={version} />
    </>
  )
}

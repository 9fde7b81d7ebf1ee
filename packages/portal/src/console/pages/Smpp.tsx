/**
 * SMPP: every account's SMPP credentials with the admin API's actions (create — the password shown
 * once —, disable, enable, rotate the password, delete), the live binds of every process with an
 * unbind button (confirmed), and the audit entries of SMPP changes. Changes need `accounts.manage`.
 */
import { useState } from "react"
import { CopyField } from "../../shared/secrets.js"
import { api } from "../api.js"
import { ActionForm, Input, Select, useAction, useForm } from "../forms.js"
import { useMay } from "../session.js"
import { ErrorBox, Loading, Section, Status, Table, Time, useLoad } from "../ui.js"
import type { AuditEntryView, SmppAccountView, SmppAccountWithPassword, SmppBindView } from "../views.js"
import { AccountPicker } from "./Accounts.js"

/** The audit entries of SMPP credentials and binds, newest first. */
const smppAudit = async (): Promise<ReadonlyArray<AuditEntryView>> => {
  const [accounts, binds] = await Promise.all([
    api<ReadonlyArray<AuditEntryView>>("GET", "/audit-log?action=smpp_account.*&limit=20"),
    api<ReadonlyArray<AuditEntryView>>("GET", "/audit-log?action=smpp_bind.*&limit=20")
  ])
  return [...accounts, ...binds].sort((a, b) => Number(b.id) - Number(a.id)).slice(0, 20)
}

function NewCredentials(props: { readonly onCreated: (c: SmppAccountWithPassword) => void }) {
  const [account, setAccount] = useState("")
  const form = useForm({ system_id: "", mode: "live", rate: "50", burst: "", max_binds: "2", allowed_ips: "" })
  return (
    <Section title="New SMPP credentials">
      <ActionForm
        submit="Create SMPP credentials"
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
        <Input label="System ID" maxLength={15} {...form.bind("system_id")} />
        <Select label="Mode" options={["live", "sandbox"]} {...form.bind("mode")} />
        <Input label="Throughput (parts per second)" inputMode="numeric" {...form.bind("rate")} />
        <Input label="Burst" hint="Empty: the rate." inputMode="numeric" {...form.bind("burst")} />
        <Input label="Max binds" inputMode="numeric" {...form.bind("max_binds")} />
        <Input
          label="Allowed IP addresses"
          hint="Separated by commas; empty: any address."
          {...form.bind("allowed_ips")}
        />
      </ActionForm>
    </Section>
  )
}

/** The latest SMPP audit entries (reloaded with the page's `version`). */
function AuditEntries(props: { readonly version: number }) {
  const audit = useLoad(smppAudit, [props.version])
  return (
    <Section title="SMPP audit entries">
      <Loading loaded={audit} />
      <Table
        rows={audit.data ?? []}
        rowKey={(e) => e.id}
        columns={[
          ["When", (e) => <Time iso={e.at} />],
          ["Actor", (e) => e.actor_name],
          ["Action", (e) => e.action],
          ["Target", (e) => e.target ?? ""]
        ]}
      />
    </Section>
  )
}

/** The SMPP page. */
export function SmppPage() {
  const may = useMay()
  const manage = may("accounts.manage")
  const [version, setVersion] = useState(0)
  const accounts = useLoad<ReadonlyArray<SmppAccountView>>(() => api("GET", "/smpp-accounts"), [version])
  const binds = useLoad<ReadonlyArray<SmppBindView>>(() => api("GET", "/smpp-binds"), [version])
  const [password, setPassword] = useState<{ readonly systemId: string; readonly password: string } | null>(null)
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
  const liveOf = (a: SmppAccountView) => (binds.data ?? []).filter((b) => b.smpp_account_uid === a.uid).length
  return (
    <>
      <h1>SMPP</h1>
      <Loading loaded={accounts} />
      <ErrorBox error={action.error} />
      {password !== null && (
        <div className="once" role="alert">
          <p>
            <strong>Copy the password of {password.systemId} now: it is shown only once.</strong>
          </p>
          <CopyField
            label={`SMPP password of ${password.systemId}`}
            value={password.password}
            copy="Copy password"
            done="Copied."
            failed="Select the text and copy it."
          />
        </div>
      )}
      <Table
        caption="SMPP credentials"
        rows={accounts.data ?? []}
        rowKey={(a) => a.uid}
        columns={[
          ["System ID", (a) => <code>{a.system_id}</code>],
          ["Account", (a) => <code>{a.account_uid}</code>],
          ["Mode", (a) => a.mode],
          ["Throughput", (a) => `${a.throughput.rate}/s, burst ${a.throughput.burst}`],
          ["Max binds", (a) => a.max_binds],
          ["Allowed IPs", (a) => a.allowed_ips.length === 0 ? "any" : a.allowed_ips.join(", ")],
          ["Status", (a) => <Status status={a.status} />],
          ["Live binds", liveOf],
          manage && ["Actions", (a) => (
            <div className="actions">
              <button
                type="button"
                disabled={action.busy}
                onClick={() =>
                  change(
                    `Give ${a.system_id} a new password? Binds up stay up.`,
                    "POST",
                    `/smpp-accounts/${a.uid}/rotate-password`,
                    true
                  )}
              >
                Rotate password of {a.system_id}
              </button>
              {a.status === "active"
                ? (
                  <button
                    type="button"
                    disabled={action.busy}
                    onClick={() =>
                      change(
                        `Disable ${a.system_id}? Its binds are closed.`,
                        "POST",
                        `/smpp-accounts/${a.uid}/disable`
                      )}
                  >
                    Disable {a.system_id}
                  </button>
                )
                : (
                  <button
                    type="button"
                    disabled={action.busy}
                    onClick={() => change(null, "POST", `/smpp-accounts/${a.uid}/enable`)}
                  >
                    Enable {a.system_id}
                  </button>
                )}
              <button
                type="button"
                className="danger"
                disabled={action.busy}
                onClick={() =>
                  change(
                    `Delete ${a.system_id}? Its binds are closed and its pending receipts dropped.`,
                    "DELETE",
                    `/smpp-accounts/${a.uid}`
                  )}
              >
                Delete {a.system_id}
              </button>
            </div>
          )]
        ]}
      />
      {manage && (
        <NewCredentials
          onCreated={(c) => {
            setPassword({ systemId: c.system_id, password: c.password })
            reload()
          }}
        />
      )}
      <Section title="Live binds">
        <Loading loaded={binds} />
        <Table
          rows={binds.data ?? []}
          rowKey={(b) => b.uid}
          columns={[
            ["System ID", (b) => <code>{b.system_id}</code>],
            ["Bind type", (b) => b.bind_type],
            ["Remote address", (b) => <code>{b.remote_address}</code>],
            ["Since", (b) => <Time iso={b.since} />],
            ["In flight", (b) => b.in_flight],
            ["Submits/s (last minute)", (b) => b.submit_rate],
            manage && ["Actions", (b) =>
              b.unbind_requested_at !== null ? "Unbinding…" : (
                <button
                  type="button"
                  disabled={action.busy}
                  onClick={() =>
                    change(
                      `Unbind ${b.system_id} from ${b.remote_address}? The ESME is sent unbind and disconnected.`,
                      "DELETE",
                      `/smpp-binds/${b.uid}`
                    )}
                >
                  Unbind {b.system_id} from {b.remote_address}
                </button>
              )]
          ]}
        />
        {binds.data !== undefined && binds.data.length === 0 && <p>Nothing is bound now.</p>}
        <button type="button" onClick={reload}>Refresh</button>
      </Section>
      <AuditEntries version={version} />
    </>
  )
}

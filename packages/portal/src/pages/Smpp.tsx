/**
 * SMPP: how to connect (host, port, TLS port, bind types), the account's SMPP credentials (system id,
 * mode, throughput and burst, max binds, allowed addresses, status, live binds) and the live binds with
 * their figures; owners create credentials and rotate passwords (each password shown once, with a copy
 * button), change the allowed addresses (SmppEdit.tsx; the limits read-only, the provider's), disable,
 * enable, delete (confirmed) and unbind a bind (confirmed). Members read.
 * The table of command_status codes is the domain's (`commandStatusOfRefusal`), shown on the page.
 */
import { commandStatusOfRefusal } from "@tuma/domain/smpp"
import type { PortalSmpp, PortalSmppAccount, PortalSmppBind } from "@tuma/http/portal/Api"
import { useState } from "react"
import { call } from "../api.js"
import { useI18n } from "../i18n.js"
import { useIsOwner } from "../session.js"
import { CopyField } from "../shared/secrets.js"
import { ErrorBox, Field, Loading, PageTitle, Status, Time, useAction, useLoad } from "../ui.js"
import { Facts, onSubmit, SubmitRow, Table } from "../widgets.js"
import { EditCredentials, SavedLine } from "./SmppEdit.js"

const hex = (n: number) => `0x${n.toString(16).toUpperCase().padStart(2, "0")}`

/** The refusals a customer meets most, by their command_status (the rest: docs/smpp.md). */
const STATUS_ROWS: ReadonlyArray<readonly [string, string]> = [
  ["SENDER_ID_NOT_APPROVED", "The sender ID is not approved for this account."],
  ["VALIDATION_FAILED", "The recipient is not a valid number."],
  ["ROUTE_NOT_VERIFIED", "The route to this country is not verified for the account."],
  ["RECIPIENT_OPTED_OUT", "The recipient opted out."],
  ["SPAM_POLICY", "The text was refused by the spam policy."],
  ["NO_PROVIDER_ROUTE", "No carrier serves this number."],
  ["INSUFFICIENT_BALANCE", "No credit left: top up."],
  ["PROVIDER_CREDIT_EXHAUSTED", "Temporary: try again later."],
  ["DUPLICATE_CONTENT_RATE_LIMITED", "The same text too often: slow down."],
  ["ACCOUNT_INACTIVE", "The account is suspended."]
]

function Connection(props: { readonly connection: PortalSmpp["connection"] }) {
  const { t } = useI18n()
  const c = props.connection
  if (c === null) return <p className="card">{t("This server does not offer SMPP. Ask your provider.")}</p>
  return (
    <section className="card" aria-labelledby="smpp-connect">
      <h2 id="smpp-connect">{t("How to connect")}</h2>
      <Facts
        facts={[
          [t("Host"), <code key="h" translate="no">{c.host}</code>],
          c.port !== null && [t("Port"), <code key="p">{c.port}</code>],
          c.tls_port !== null && [t("TLS port"), <code key="t">{c.tls_port}</code>],
          [t("Bind types"), <code key="b" translate="no">{c.bind_types.map((b) => `bind_${b}`).join(", ")}</code>],
          [t("SMPP versions"), c.interface_versions.join(", ")]
        ]}
      />
      <p>
        {t(
          "Bind with your system ID and password. Every message gets a delivery receipt (deliver_sm) on a receiver or transceiver bind. Send enquire_link every 30 to 60 seconds."
        )}
      </p>
      <p>
        <a href="#smpp-status-codes">{t("What each command_status means")}</a>
      </p>
    </section>
  )
}

function NewCredentials(props: { readonly onCreated: (password: string, systemId: string) => void }) {
  const { t } = useI18n()
  const [systemId, setSystemId] = useState("")
  const [mode, setMode] = useState<"live" | "sandbox">("live")
  const [ips, setIps] = useState("")
  const action = useAction()
  const submit = onSubmit(action, async () => {
    const allowed = ips.split(/[\s,]+/).filter((s) => s !== "")
    const r = await call((c) =>
      c.portalSmpp.createSmppAccount({
        payload: { system_id: systemId.trim(), mode, ...(allowed.length > 0 ? { allowed_ips: allowed } : {}) }
      })
    )
    props.onCreated(r.data.password, r.data.system_id)
    setSystemId("")
    setIps("")
  })
  return (
    <form onSubmit={submit} className="card">
      <h2>{t("New SMPP credentials")}</h2>
      <Field label={t("System ID")} hint={t("1 to 15 letters, digits, '.', '_' or '-'; unique on the platform.")}>
        <input required maxLength={15} value={systemId} onChange={(e) => setSystemId(e.currentTarget.value)} />
      </Field>
      <fieldset>
        <legend>{t("Mode")}</legend>
        <label className="check">
          <input type="radio" name="smpp-mode" checked={mode === "live"} onChange={() => setMode("live")} />
          {t("Live (sends and charges)")}
        </label>
        <label className="check">
          <input type="radio" name="smpp-mode" checked={mode === "sandbox"} onChange={() => setMode("sandbox")} />
          {t("Sandbox (nothing is sent)")}
        </label>
      </fieldset>
      <Field label={t("Allowed IP addresses")} hint={t("IPs or CIDRs, separated by commas; empty: any address.")}>
        <input value={ips} onChange={(e) => setIps(e.currentTarget.value)} />
      </Field>
      <p className="hint">
        {t("Throughput and the number of binds are set by your provider (50 parts per second, 2 binds to start).")}
      </p>
      <SubmitRow action={action} label={t("Create SMPP credentials")} />
    </form>
  )
}

function Password(props: { readonly systemId: string; readonly password: string }) {
  const { t } = useI18n()
  return (
    <div className="once" role="alert">
      <p>
        <strong>
          {t("Copy the password of {systemId} now: it is shown only once and cannot be read again.", {
            systemId: props.systemId
          })}
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

function LiveBinds(props: {
  readonly binds: ReadonlyArray<PortalSmppBind>
  readonly owner: boolean
  readonly confirmed: (question: string, f: () => Promise<unknown>) => void
}) {
  const { t } = useI18n()
  const { confirmed, owner } = props
  return (
    <Table
      caption={t("Live binds")}
      rows={props.binds}
      rowKey={(b) => b.uid}
      columns={[
        [t("System ID"), (b) => <code translate="no">{b.system_id}</code>],
        [t("Bind type"), (b) => <code translate="no">{b.bind_type}</code>],
        [t("Address"), (b) => <code translate="no">{b.remote_address}</code>],
        [t("Since"), (b) => <Time iso={b.since} />],
        [t("In flight"), (b) => b.in_flight],
        [t("Submits per second (last minute)"), (b) => b.submit_rate],
        owner && [t("Actions"), (b) =>
          b.unbind_requested_at !== null
            ? t("Unbinding…")
            : (
              <button
                type="button"
                aria-label={t("Unbind {systemId} from {address}", {
                  systemId: b.system_id,
                  address: b.remote_address
                })}
                onClick={() =>
                  confirmed(
                    t("Unbind {systemId} from {address}? The connection is closed; your system may bind again.", {
                      systemId: b.system_id,
                      address: b.remote_address
                    }),
                    () => call((c) => c.portalSmpp.unbindSmppBind({ path: { smpp_bind_uid: b.uid } }))
                  )}
              >
                {t("Unbind")}
              </button>
            )]
      ]}
    />
  )
}

function StatusCodes() {
  const { t } = useI18n()
  return (
    <section className="card" id="smpp-status-codes" aria-labelledby="smpp-status-title">
      <h2 id="smpp-status-title">{t("SMPP status codes")}</h2>
      <p>
        {t("A refused submit_sm is answered with one of these command_status values; nothing is sent or charged.")}
      </p>
      <Table
        rows={STATUS_ROWS}
        rowKey={(r) => r[0]}
        columns={[
          ["command_status", (r) => <code translate="no">{hex(commandStatusOfRefusal[r[0]] ?? 0x45)}</code>],
          [t("Reason"), (r) => t(r[1])],
          [t("API error"), (r) => <code translate="no">{r[0]}</code>]
        ]}
      />
      <p>{t("Also: 0x58 throughput exceeded (slow down), 0x14 window full, 0x0D bind refused.")}</p>
    </section>
  )
}

export function SmppPage() {
  const { t } = useI18n()
  const owner = useIsOwner()
  const [version, setVersion] = useState(0)
  const page = useLoad(() => call((c) => c.portalSmpp.smpp()), [version])
  const [shown, setShown] = useState<{ readonly systemId: string; readonly password: string }>()
  const [editing, setEditing] = useState<string>()
  const [saved, setSaved] = useState<string>()
  const action = useAction()
  const reload = () => setVersion((v) => v + 1)
  const run = (f: () => Promise<unknown>) =>
    action.run(async () => {
      await f()
      reload()
    })
  const confirmed = (question: string, f: () => Promise<unknown>) => {
    if (window.confirm(question)) void run(f)
  }
  const data = page.data?.data
  const binds = data?.binds ?? []
  const bindsOf = (a: PortalSmppAccount) => binds.filter((b) => b.smpp_account_uid === a.uid).length
  const editingAccount = data?.accounts.find((a) => a.uid === editing)
  const accountActions = (a: PortalSmppAccount) => (
    <div className="actions">
      <button
        type="button"
        aria-label={t("Edit {systemId}", { systemId: a.system_id })}
        aria-expanded={editing === a.uid}
        onClick={() => {
          setSaved(undefined)
          setEditing(a.uid)
        }}
      >
        {t("Edit")}
      </button>
      <button
        type="button"
        aria-label={t("Rotate the password of {systemId}", { systemId: a.system_id })}
        onClick={() =>
          window.confirm(
            t("Give {systemId} a new password? New binds need it; binds up stay up.", { systemId: a.system_id })
          ) &&
          void action.run(async () => {
            const r = await call((c) => c.portalSmpp.rotateSmppPassword({ path: { smpp_account_uid: a.uid } }))
            setShown({ systemId: a.system_id, password: r.data.password })
            reload()
          })}
      >
        {t("Rotate password")}
      </button>
      {a.status === "active"
        ? (
          <button
            type="button"
            aria-label={t("Disable {systemId}", { systemId: a.system_id })}
            onClick={() =>
              confirmed(
                t("Disable {systemId}? Its binds are closed and new binds refused.", { systemId: a.system_id }),
                () => call((c) => c.portalSmpp.disableSmppAccount({ path: { smpp_account_uid: a.uid } }))
              )}
          >
            {t("Disable")}
          </button>
        )
        : (
          <button
            type="button"
            aria-label={t("Enable {systemId}", { systemId: a.system_id })}
            onClick={() =>
              void run(() => call((c) => c.portalSmpp.enableSmppAccount({ path: { smpp_account_uid: a.uid } })))}
          >
            {t("Enable")}
          </button>
        )}
      <button
        type="button"
        className="danger"
        aria-label={t("Delete {systemId}", { systemId: a.system_id })}
        onClick={() =>
          confirmed(
            t("Delete {systemId}? Its binds are closed and receipts not yet delivered are dropped.", {
              systemId: a.system_id
            }),
            () => call((c) => c.portalSmpp.deleteSmppAccount({ path: { smpp_account_uid: a.uid } }))
          )}
      >
        {t("Delete")}
      </button>
    </div>
  )
  return (
    <>
      <PageTitle>{t("SMPP")}</PageTitle>
      <p>{t("Connect your own systems over SMPP 3.3 or 3.4: the same rules, prices and receipts as the API.")}</p>
      <Loading loaded={page} />
      {data !== undefined && <Connection connection={data.connection} />}
      {owner
        ? (
          <NewCredentials
            onCreated={(password, systemId) => {
              setShown({ systemId, password })
              reload()
            }}
          />
        )
        : <p className="card">{t("Only owners of the account create and change SMPP credentials.")}</p>}
      {shown !== undefined && <Password systemId={shown.systemId} password={shown.password} />}
      <ErrorBox error={action.error} />
      <Table
        caption={t("SMPP credentials")}
        rows={data?.accounts ?? []}
        rowKey={(a) => a.uid}
        columns={[
          [t("System ID"), (a) => <code translate="no">{a.system_id}</code>],
          [t("Mode"), (a) => a.mode === "live" ? t("Live") : t("Sandbox")],
          [
            t("Throughput"),
            (a) => t("{rate}/s, burst {burst}", { rate: a.throughput.rate, burst: a.throughput.burst })
          ],
          [t("Max binds"), (a) => a.max_binds],
          [t("Allowed IP addresses"), (a) => a.allowed_ips.length === 0 ? t("Any") : a.allowed_ips.join(", ")],
          [t("Status"), (a) => <Status status={a.status} />],
          [t("Live binds"), bindsOf],
          owner && [t("Actions"), accountActions]
        ]}
      />
      {data !== undefined && data.accounts.length === 0 && <p>{t("No SMPP credentials yet.")}</p>}
      {saved !== undefined && <SavedLine systemId={saved} />}
      {owner && editingAccount !== undefined && (
        <EditCredentials
          key={editingAccount.uid}
          account={editingAccount}
          onDone={(done) => {
            setEditing(undefined)
            if (done !== null) {
              setSaved(done.system_id)
              reload()
            }
          }}
        />
      )}
      <LiveBinds binds={binds} owner={owner} confirmed={confirmed} />
      {data !== undefined && binds.length === 0 && <p>{t("Nothing is bound now.")}</p>}
      <button type="button" onClick={reload}>{t("Refresh")}</button>
      <StatusCodes />
    </>
  )
}

/**
 * Credit: an account's wallets, top-ups per country with a reference, corrections (ledger rows of
 * their own, never edits: signed units, a reason, optionally the entry corrected), and the ledger.
 */
import { isCorrectable } from "@tuma/domain/ledger"
import { useState } from "react"
import { api } from "../api.js"
import { ActionForm, Field, Input, useForm } from "../forms.js"
import { useMay } from "../session.js"
import { Loading, Section, Table, Time, useLoad } from "../ui.js"
import type { AccountDetailView, CreditChangeView, LedgerEntryView } from "../views.js"
import { AccountPicker, WalletTable } from "./Accounts.js"

/** The Credit page. */
export function CreditPage() {
  const may = useMay()
  const [account, setAccount] = useState("")
  const detail = useLoad<AccountDetailView | undefined>(
    () => (account === "" ? Promise.resolve(undefined) : api("GET", `/accounts/${account}`)),
    [account]
  )
  const ledger = useLoad<ReadonlyArray<LedgerEntryView>>(
    () => (account === "" ? Promise.resolve([]) : api("GET", `/accounts/${account}/ledger`)),
    [account]
  )
  const changed = () => {
    detail.reload()
    ledger.reload()
  }
  return (
    <>
      <h1>Credit</h1>
      <AccountPicker value={account} onChange={setAccount} />
      {account !== "" && (
        <>
          <Loading loaded={detail} />
          <Section title="Wallets">
            <WalletTable wallets={detail.data?.wallets ?? []} />
          </Section>
          {may("credit.manage") && <TopUp account={account} onDone={changed} />}
          {may("credit.manage") && <Correction account={account} entries={ledger.data ?? []} onDone={changed} />}
          <Section title="Ledger">
            <Table
              rows={ledger.data ?? []}
              rowKey={(l) => l.id}
              columns={[
                ["Entry", (l) => `#${l.id}`],
                ["When", (l) => <Time iso={l.created_at} />],
                ["Country", (l) => l.country],
                ["Kind", (l) => l.kind],
                ["Units", (l) => l.units],
                ["Balance after", (l) => l.balance_after],
                ["Reference", (l) => l.reference ?? ""],
                [
                  "Reason",
                  (l) =>
                    l.reason === null ? "" : `${l.reason}${l.corrects === null ? "" : ` (corrects #${l.corrects})`}`
                ]
              ]}
            />
          </Section>
        </>
      )}
    </>
  )
}

/** A top-up: units per country with a required reference (and the amount paid). */
function TopUp(props: { readonly account: string; readonly onDone: () => void }) {
  const form = useForm({ country: "TZ", units: "", reference: "", amount: "", currency: "TZS" })
  const { amount, country, currency, reference, units } = form.values
  return (
    <Section title="Top up">
      <ActionForm
        submit="Top up"
        run={async () => {
          const r = await api<CreditChangeView>("POST", `/accounts/${props.account}/top-ups`, {
            country,
            units: Number(units),
            reference,
            ...(amount !== "" ? { amount, currency } : {})
          })
          form.reset("units", "reference", "amount")
          props.onDone()
          return `${units} units added to ${r.wallet.country}; balance ${r.wallet.balance}.`
        }}
      >
        <Input label="Country" {...form.bind("country")} />
        <Input label="Units" type="number" min="1" {...form.bind("units")} />
        <Input label="Reference" hint="Invoice or receipt number." {...form.bind("reference")} />
        <Input label="Amount paid" inputMode="decimal" {...form.bind("amount")} />
        <Input label="Currency" {...form.bind("currency")} />
      </ActionForm>
    </Section>
  )
}

/** A correction: an `adjustment` row of its own; refused (nothing changes) when the wallet would go below 0. */
function Correction(props: {
  readonly account: string
  readonly entries: ReadonlyArray<LedgerEntryView>
  readonly onDone: () => void
}) {
  const form = useForm({ country: "TZ", units: "", reason: "", corrects: "" })
  const { corrects, country, reason, units } = form.values
  return (
    <Section title="Correction">
      <ActionForm
        submit="Record correction"
        run={async () => {
          const r = await api<CreditChangeView>("POST", `/accounts/${props.account}/corrections`, {
            country,
            units: Number(units),
            reason,
            ...(corrects !== "" ? { corrects } : {})
          })
          form.reset("units", "reason", "corrects")
          props.onDone()
          return `Correction of ${r.entry.units} units to ${r.wallet.country} recorded; balance ${r.wallet.balance}.`
        }}
      >
        <Input label="Country" {...form.bind("country")} />
        <Input label="Units" hint="Negative removes credit (never below 0)." type="number" {...form.bind("units")} />
        <Input label="Reason" required {...form.bind("reason")} />
        <Field label="Corrects entry">
          <select {...form.bind("corrects")}>
            <option value="">None</option>
            {props.entries.filter((l) => isCorrectable(l.kind) && l.country === country.trim().toUpperCase()).map((
              l
            ) => <option key={l.id} value={l.id}>#{l.id} {l.kind} {l.units} {l.country} {l.reference ?? ""}</option>)}
          </select>
        </Field>
      </ActionForm>
    </Section>
  )
}

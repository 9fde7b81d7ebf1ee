/**
 * Credit: an account's wallets, top-ups per country with a reference, corrections (ledger rows of
 * their own, never edits: signed units, a reason, optionally the entry corrected), and the ledger.
 */
import { isCorrectable } from "@tuma/domain/ledger"
import { useState } from "react"
import { api } from "../api.js"
import { ActionForm, Field, Input, useForm } from "../forms.js"
import { useMay } from "../session.js"
import { Loading, Section, Table, Time, useLoad, useT } from "../ui.js"
import type { AccountDetailView, CreditChangeView, LedgerEntryView } from "../views.js"
import { AccountPicker, WalletTable } from "./Accounts.js"

/** The Credit page. */
export function CreditPage() {
  const t = useT()
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
      <h1>{t("Credit")}</h1>
      <AccountPicker value={account} onChange={setAccount} />
      {account !== "" && (
        <>
          <Loading loaded={detail} />
          <Section title={t("Wallets")}>
            <WalletTable wallets={detail.data?.wallets ?? []} />
          </Section>
          {may("credit.manage") && <TopUp account={account} onDone={changed} />}
          {may("credit.manage") && <Correction account={account} entries={ledger.data ?? []} onDone={changed} />}
          <Section title={t("Ledger")}>
            <Table
              rows={ledger.data ?? []}
              rowKey={(l) => l.id}
              columns={[
                [t("Entry"), (l) => `#${l.id}`],
                [t("When"), (l) => <Time iso={l.created_at} />],
                [t("Country"), (l) => l.country],
                [t("Kind"), (l) => t(ledgerKind(l.kind))],
                [t("Units"), (l) => l.units],
                [t("Balance after"), (l) => l.balance_after],
                [t("Reference"), (l) => <span translate="no">{l.reference ?? ""}</span>],
                [
                  t("Reason"),
                  (l) => (
                    <>
                      <span translate="no">{l.reason ?? ""}</span>
                      {l.corrects === null ? "" : ` (${t("corrects #{entry}", { entry: l.corrects })})`}
                    </>
                  )
                ]
              ]}
            />
          </Section>
        </>
      )}
    </>
  )
}

/** A ledger entry's kind by the name an operator knows it by (an English key of sw.ts): `top_up` → "Top-up". */
const ledgerKind = (kind: string): string =>
  ({ purchase: "Purchase", top_up: "Top-up", adjustment: "Adjustment", debit: "Debit", refund: "Refund" })[kind] ??
    kind

/** The status line of a credit change: `template` with the units, the wallet's country and its new balance. */
const said = (t: ReturnType<typeof useT>, template: string, units: string | number, r: CreditChangeView) =>
  t(template, { units, country: r.wallet.country, balance: r.wallet.balance })

/** A top-up: units per country with a required reference (and the amount paid). */
function TopUp(props: { readonly account: string; readonly onDone: () => void }) {
  const t = useT()
  const form = useForm({ country: "TZ", units: "", reference: "", amount: "", currency: "TZS" })
  const { amount, country, currency, reference, units } = form.values
  return (
    <Section title={t("Top up")}>
      <ActionForm
        submit={t("Top up")}
        run={async () => {
          const r = await api<CreditChangeView>("POST", `/accounts/${props.account}/top-ups`, {
            country,
            units: Number(units),
            reference,
            ...(amount !== "" ? { amount, currency } : {})
          })
          form.reset("units", "reference", "amount")
          props.onDone()
          return said(t, "{units} units added to {country}; balance {balance}.", units, r)
        }}
      >
        <Input label={t("Country")} {...form.bind("country")} />
        <Input label={t("Units")} type="number" min="1" {...form.bind("units")} />
        <Input label={t("Reference")} hint={t("Invoice or receipt number.")} {...form.bind("reference")} />
        <Input label={t("Amount paid")} inputMode="decimal" {...form.bind("amount")} />
        <Input label={t("Currency")} {...form.bind("currency")} />
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
  const t = useT()
  const form = useForm({ country: "TZ", units: "", reason: "", corrects: "" })
  const { corrects, country, reason, units } = form.values
  return (
    <Section title={t("Correction")}>
      <ActionForm
        submit={t("Record correction")}
        run={async () => {
          const r = await api<CreditChangeView>("POST", `/accounts/${props.account}/corrections`, {
            country,
            units: Number(units),
            reason,
            ...(corrects !== "" ? { corrects } : {})
          })
          form.reset("units", "reason", "corrects")
          props.onDone()
          return said(t, "Correction of {units} units to {country} recorded; balance {balance}.", r.entry.units, r)
        }}
      >
        <Input label={t("Country")} {...form.bind("country")} />
        <Input
          label={t("Units")}
          hint={t("Negative removes credit (never below 0).")}
          type="number"
          {...form.bind("units")}
        />
        <Input label={t("Reason")} required {...form.bind("reason")} />
        <Field label={t("Corrects entry")}>
          <select {...form.bind("corrects")}>
            <option value="">{t("None")}</option>
            {props.entries.filter((l) => isCorrectable(l.kind) && l.country === country.trim().toUpperCase()).map((
              l
            ) => (
              <option key={l.id} value={l.id}>
                #{l.id} {t(ledgerKind(l.kind))} {l.units} {l.country} {l.reference ?? ""}
              </option>
            ))}
          </select>
        </Field>
      </ActionForm>
    </Section>
  )
}

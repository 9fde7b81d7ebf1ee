/**
 * Credit: an account's wallets, top-ups per country with a reference, corrections (ledger rows of
 * their own, never edits: signed units, a reason, optionally the entry corrected), and the ledger.
 */
import { useState } from "react"
import { api } from "../api.js"
import { useMay } from "../session.js"
import { ErrorBox, Field, Head, Loading, Section, Time, useAction, useLoad } from "../ui.js"
import { AccountPicker } from "./Accounts.js"

/** The Credit page. */
export function CreditPage() {
  const may = useMay()
  const [account, setAccount] = useState("")
  const [country, setCountry] = useState("TZ")
  const [units, setUnits] = useState("")
  const [reference, setReference] = useState("")
  const [amount, setAmount] = useState("")
  const [currency, setCurrency] = useState("TZS")
  const [done, setDone] = useState<string | null>(null)
  const action = useAction()
  const detail = useLoad<any>(
    () => (account === "" ? Promise.resolve(undefined) : api("GET", `/accounts/${account}`)),
    [account]
  )
  const ledger = useLoad<ReadonlyArray<any>>(
    () => (account === "" ? Promise.resolve([]) : api("GET", `/accounts/${account}/ledger`)),
    [account]
  )
  return (
    <>
      <h1>Credit</h1>
      <AccountPicker value={account} onChange={setAccount} />
      {account !== "" && (
        <>
          <Loading loaded={detail} />
          <Section title="Wallets">
            <table>
              <Head cols={["Country", "Balance"]} />
              <tbody>
                {(detail.data?.wallets ?? []).map((w: any) => (
                  <tr key={w.wallet_uid}>
                    <td>{w.country}</td>
                    <td>{w.balance}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Section>
          {may("credit.manage") && (
            <Section title="Top up">
              <form
                onSubmit={(e) => {
                  e.preventDefault()
                  void action.run(async () => {
                    const r = await api("POST", `/accounts/${account}/top-ups`, {
                      country,
                      units: Number(units),
                      reference,
                      ...(amount !== "" ? { amount, currency } : {})
                    })
                    setDone(`${units} units added to ${r.wallet.country}; balance ${r.wallet.balance}.`)
                    setUnits("")
                    setReference("")
                    detail.reload()
                    ledger.reload()
                  })
                }}
              >
                <Field label="Country">
                  <input type="text" value={country} onChange={(e) => setCountry(e.currentTarget.value)} />
                </Field>
                <Field label="Units">
                  <input type="number" min="1" value={units} onChange={(e) => setUnits(e.currentTarget.value)} />
                </Field>
                <Field label="Reference" hint="Invoice or receipt number.">
                  <input type="text" value={reference} onChange={(e) => setReference(e.currentTarget.value)} />
                </Field>
                <Field label="Amount paid">
                  <input
                    type="text"
                    inputMode="decimal"
                    value={amount}
                    onChange={(e) => setAmount(e.currentTarget.value)}
                  />
                </Field>
                <Field label="Currency">
                  <input type="text" value={currency} onChange={(e) => setCurrency(e.currentTarget.value)} />
                </Field>
                <button type="submit" disabled={action.busy}>Top up</button>
                <ErrorBox error={action.error} />
                {done !== null && <p role="status">{done}</p>}
              </form>
            </Section>
          )}
          {may("credit.manage") && (
            <Correction
              account={account}
              entries={ledger.data ?? []}
              onDone={() => {
                detail.reload()
                ledger.reload()
              }}
            />
          )}
          <Section title="Ledger">
            <table>
              <Head cols={["Entry", "When", "Country", "Kind", "Units", "Balance after", "Reference", "Reason"]} />
              <tbody>
                {(ledger.data ?? []).map((l) => (
                  <tr key={l.id}>
                    <td>#{l.id}</td>
                    <td>
                      <Time iso={l.created_at} />
                    </td>
                    <td>{l.country}</td>
                    <td>{l.kind}</td>
                    <td>{l.units}</td>
                    <td>{l.balance_after}</td>
                    <td>{l.reference ?? ""}</td>
                    <td>
                      {l.reason === null ? "" : `${l.reason}${l.corrects === null ? "" : ` (corrects #${l.corrects})`}`}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Section>
        </>
      )}
    </>
  )
}

/** A correction: an `adjustment` row of its own; refused (nothing changes) when the wallet would go below 0. */
function Correction(props: {
  readonly account: string
  readonly entries: ReadonlyArray<any>
  readonly onDone: () => void
}) {
  const [country, setCountry] = useState("TZ")
  const [units, setUnits] = useState("")
  const [reason, setReason] = useState("")
  const [corrects, setCorrects] = useState("")
  const [done, setDone] = useState<string | null>(null)
  const action = useAction()
  return (
    <Section title="Correction">
      <form
        onSubmit={(e) => {
          e.preventDefault()
          setDone(null)
          void action.run(async () => {
            const r = await api("POST", `/accounts/${props.account}/corrections`, {
              country,
              units: Number(units),
              reason,
              ...(corrects !== "" ? { corrects } : {})
            })
            setDone(
              `Correction of ${r.entry.units} units to ${r.wallet.country} recorded; balance ${r.wallet.balance}.`
            )
            setUnits("")
            setReason("")
            setCorrects("")
            props.onDone()
          })
        }}
      >
        <Field label="Country">
          <input type="text" value={country} onChange={(e) => setCountry(e.currentTarget.value)} />
        </Field>
        <Field label="Units" hint="Signed: a negative number removes credit (never below 0).">
          <input type="number" step="1" value={units} onChange={(e) => setUnits(e.currentTarget.value)} />
        </Field>
        <Field label="Reason">
          <input type="text" required value={reason} onChange={(e) => setReason(e.currentTarget.value)} />
        </Field>
        <Field label="Corrects entry">
          <select value={corrects} onChange={(e) => setCorrects(e.currentTarget.value)}>
            <option value="">None</option>
            {props.entries.map((l) => (
              <option key={l.id} value={l.id}>
                #{l.id} {l.kind} {l.units} {l.country} {l.reference ?? ""}
              </option>
            ))}
          </select>
        </Field>
        <button type="submit" disabled={action.busy}>Record correction</button>
        <ErrorBox error={action.error} />
        {done !== null && <p role="status">{done}</p>}
      </form>
    </Section>
  )
}

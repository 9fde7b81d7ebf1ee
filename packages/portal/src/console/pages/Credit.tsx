/** Credit: an account's wallets, top-ups per country with a reference, and the ledger. */
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
          <Section title="Ledger">
            <table>
              <Head cols={["When", "Country", "Kind", "Units", "Balance after", "Reference"]} />
              <tbody>
                {(ledger.data ?? []).map((l) => (
                  <tr key={l.id}>
                    <td>
                      <Time iso={l.created_at} />
                    </td>
                    <td>{l.country}</td>
                    <td>{l.kind}</td>
                    <td>{l.units}</td>
                    <td>{l.balance_after}</td>
                    <td>{l.reference ?? ""}</td>
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

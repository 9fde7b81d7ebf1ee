/** Routes and markets: open and close markets; verify an account's route for a country. */
import { useState } from "react"
import { api } from "../api.js"
import { useMay } from "../session.js"
import { ErrorBox, Field, Head, Loading, Section, Status, useAction, useLoad } from "../ui.js"
import { AccountPicker } from "./Accounts.js"

/** The Routes and markets page. */
export function MarketsPage() {
  const may = useMay()
  const markets = useLoad<ReadonlyArray<any>>(() => api("GET", "/markets"), [])
  const action = useAction()
  const [account, setAccount] = useState("")
  const [country, setCountry] = useState("TZ")
  const [phone, setPhone] = useState("")
  const [verified, setVerified] = useState<string | null>(null)
  return (
    <>
      <h1>Routes and markets</h1>
      <Loading loaded={markets} />
      <ErrorBox error={action.error} />
      <table>
        <Head cols={["Country", "Name", "Status", ""]} />
        <tbody>
          {(markets.data ?? []).map((m) => (
            <tr key={m.iso2}>
              <td>{m.iso2}</td>
              <td>{m.name}</td>
              <td>
                <Status status={m.open ? "open" : "closed"} />
              </td>
              <td>
                {may("markets.manage") && (
                  <button
                    type="button"
                    disabled={action.busy}
                    onClick={() =>
                      void action.run(() => api("POST", `/markets/${m.iso2}/${m.open ? "close" : "open"}`))
                        .then(markets.reload)}
                  >
                    {m.open ? `Close ${m.name}` : `Open ${m.name}`}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {may("markets.manage") && (
        <Section title="Verify a route">
          <form
            onSubmit={(e) => {
              e.preventDefault()
              void action.run(async () => {
                const r = await api("POST", "/routes/verify", { account_uid: account, country, phone })
                setVerified(`Route verified for ${r.country} with ${r.phone}.`)
              })
            }}
          >
            <AccountPicker value={account} onChange={setAccount} />
            <Field label="Country">
              <input type="text" value={country} onChange={(e) => setCountry(e.currentTarget.value)} />
            </Field>
            <Field label="Verified phone">
              <input type="tel" value={phone} onChange={(e) => setPhone(e.currentTarget.value)} />
            </Field>
            <button type="submit" disabled={action.busy}>Verify route</button>
            {verified !== null && <p role="status">{verified}</p>}
          </form>
        </Section>
      )}
    </>
  )
}

/**
 * Providers: live bind state, credit per country, routing order per market; add (SMPP credentials
 * are write-only: sent once, never shown again), enable, disable, credit. Running workers pick the
 * change up without a restart (the provider registry is live, decisions §30).
 */
import { useState } from "react"
import { api } from "../api.js"
import { useMay } from "../session.js"
import { ErrorBox, Field, Head, Loading, Section, Status, useAction, useLoad } from "../ui.js"

function AddProvider(props: { readonly onAdded: () => void }) {
  const [name, setName] = useState("")
  const [kind, setKind] = useState("simulated")
  const [host, setHost] = useState("")
  const [port, setPort] = useState("2775")
  const [systemId, setSystemId] = useState("")
  const [secret, setSecret] = useState("")
  const [country, setCountry] = useState("TZ")
  const [credit, setCredit] = useState("100000")
  const action = useAction()
  return (
    <Section title="Add a provider">
      <form
        onSubmit={(e) => {
          e.preventDefault()
          void action.run(async () => {
            await api("POST", "/providers", {
              name,
              kind,
              country,
              credit: Number(credit),
              ...(kind === "smpp"
                ? { config: { host, port: Number(port), system_id: systemId, password: secret } }
                : {})
            })
            setName("")
            setSecret("")
            props.onAdded()
          })
        }}
      >
        <Field label="Provider name">
          <input type="text" value={name} onChange={(e) => setName(e.currentTarget.value)} />
        </Field>
        <Field label="Kind">
          <select value={kind} onChange={(e) => setKind(e.currentTarget.value)}>
            <option value="simulated">simulated</option>
            <option value="smpp">smpp</option>
          </select>
        </Field>
        {kind === "smpp" && (
          <fieldset>
            <legend>SMPP credentials (write-only: never shown again)</legend>
            <Field label="Host">
              <input type="text" value={host} onChange={(e) => setHost(e.currentTarget.value)} />
            </Field>
            <Field label="Port">
              <input type="number" value={port} onChange={(e) => setPort(e.currentTarget.value)} />
            </Field>
            <Field label="System ID">
              <input
                type="text"
                autoComplete="off"
                value={systemId}
                onChange={(e) => setSystemId(e.currentTarget.value)}
              />
            </Field>
            <Field label="SMPP password">
              <input
                type="password"
                autoComplete="new-password"
                value={secret}
                onChange={(e) => setSecret(e.currentTarget.value)}
              />
            </Field>
          </fieldset>
        )}
        <Field label="Country">
          <input type="text" value={country} onChange={(e) => setCountry(e.currentTarget.value)} />
        </Field>
        <Field label="Initial credit">
          <input type="number" value={credit} onChange={(e) => setCredit(e.currentTarget.value)} />
        </Field>
        <button type="submit" disabled={action.busy}>Add provider</button>
        <ErrorBox error={action.error} />
      </form>
    </Section>
  )
}

function RoutingOrder(props: { readonly canEdit: boolean; readonly version: number }) {
  const [country, setCountry] = useState("TZ")
  const routes = useLoad<any>(() => api("GET", `/country-routes/${encodeURIComponent(country)}`), [
    country,
    props.version
  ])
  const action = useAction()
  const order: ReadonlyArray<any> = routes.data?.routes ?? []
  const save = (uids: ReadonlyArray<string>) =>
    void action.run(() => api("PUT", `/country-routes/${country}`, { provider_uids: uids })).then(routes.reload)
  return (
    <Section title="Routing order">
      <Field label="Market">
        <input type="text" value={country} onChange={(e) => setCountry(e.currentTarget.value.toUpperCase())} />
      </Field>
      <Loading loaded={routes} />
      <ol>
        {order.map((r, i) => (
          <li key={r.route_uid}>
            {r.provider_name} (credit {r.credit}){r.provider_enabled ? "" : " — disabled"}
            {props.canEdit && i > 0 && (
              <button
                type="button"
                className="link"
                disabled={action.busy}
                onClick={() => {
                  const uids = order.map((x) => x.provider_uid)
                  ;[uids[i - 1], uids[i]] = [uids[i], uids[i - 1]]
                  save(uids)
                }}
              >
                Move {r.provider_name} up
              </button>
            )}
          </li>
        ))}
      </ol>
      <ErrorBox error={action.error} />
    </Section>
  )
}

/** The Providers page. */
export function ProvidersPage() {
  const may = useMay()
  const [version, setVersion] = useState(0)
  const providers = useLoad<ReadonlyArray<any>>(() => api("GET", "/providers"), [version])
  const action = useAction()
  const [creditCountry, setCreditCountry] = useState("TZ")
  const [creditUnits, setCreditUnits] = useState("")
  return (
    <>
      <h1>Providers</h1>
      <Loading loaded={providers} />
      <ErrorBox error={action.error} />
      <table>
        <Head cols={["Name", "Kind", "Status", "Bind", "Credit", ""]} />
        <tbody>
          {(providers.data ?? []).map((p) => (
            <tr key={p.uid}>
              <td>{p.name}</td>
              <td>{p.kind}</td>
              <td>
                <Status status={p.enabled ? "enabled" : "disabled"} />
              </td>
              <td>{p.bind_up === null ? "—" : p.bind_up === 1 ? "bound" : "down"}</td>
              <td>{p.credits.map((c: any) => `${c.country} ${c.balance}`).join(", ")}</td>
              <td>
                {may("providers.manage") && (
                  <>
                    <button
                      type="button"
                      disabled={action.busy}
                      onClick={() =>
                        void action.run(() => api("POST", `/providers/${p.uid}/${p.enabled ? "disable" : "enable"}`))
                          .then(providers.reload)}
                    >
                      {p.enabled ? `Disable ${p.name}` : `Enable ${p.name}`}
                    </button>
                    <button
                      type="button"
                      disabled={action.busy || creditUnits === ""}
                      onClick={() =>
                        void action.run(() =>
                          api("POST", `/providers/${p.uid}/credit`, {
                            country: creditCountry,
                            units: Number(creditUnits),
                            operation: "set"
                          })
                        ).then(providers.reload)}
                    >
                      Set credit of {p.name}
                    </button>
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {may("providers.manage") && (
        <div className="filters">
          <Field label="Credit country">
            <input type="text" value={creditCountry} onChange={(e) => setCreditCountry(e.currentTarget.value)} />
          </Field>
          <Field label="Credit units">
            <input type="number" value={creditUnits} onChange={(e) => setCreditUnits(e.currentTarget.value)} />
          </Field>
        </div>
      )}
      <RoutingOrder canEdit={may("providers.manage")} version={version} />
      {may("providers.manage") && <AddProvider onAdded={() => setVersion((v) => v + 1)} />}
    </>
  )
}

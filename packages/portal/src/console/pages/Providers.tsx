/**
 * Providers: live bind state, credit per country, routing order per market; add (SMPP credentials
 * are write-only: sent once, never shown again), enable, disable, credit. Running workers pick the
 * change up without a restart (the provider registry is live, decisions §30).
 */
import { useState } from "react"
import { api } from "../api.js"
import { ActionForm, Field, Input, Select, Toggle, useAction, useForm } from "../forms.js"
import { useMay } from "../session.js"
import { ErrorBox, Listing, Loading, Section, Status, useLoad } from "../ui.js"
import type { CountryRoutesView, ProviderView } from "../views.js"

function AddProvider(props: { readonly onAdded: () => void }) {
  const form = useForm({
    name: "",
    kind: "simulated",
    host: "",
    port: "2775",
    systemId: "",
    secret: "",
    country: "TZ",
    credit: "100000"
  })
  const { country, credit, host, kind, name, port, secret, systemId } = form.values
  return (
    <Section title="Add a provider">
      <ActionForm
        submit="Add provider"
        run={async () => {
          await api("POST", "/providers", {
            name,
            kind,
            country,
            credit: Number(credit),
            ...(kind === "smpp"
              ? { config: { host, port: Number(port), system_id: systemId, password: secret } }
              : {})
          })
          form.reset("name", "secret")
          props.onAdded()
        }}
      >
        <Input label="Provider name" {...form.bind("name")} />
        <Select label="Kind" options={["simulated", "smpp"]} {...form.bind("kind")} />
        {kind === "smpp" && (
          <fieldset>
            <legend>SMPP credentials (write-only: never shown again)</legend>
            <Input label="Host" {...form.bind("host")} />
            <Input label="Port" type="number" {...form.bind("port")} />
            <Input label="System ID" autoComplete="off" {...form.bind("systemId")} />
            <Input label="SMPP password" type="password" autoComplete="new-password" {...form.bind("secret")} />
          </fieldset>
        )}
        <Input label="Country" {...form.bind("country")} />
        <Input label="Initial credit" type="number" {...form.bind("credit")} />
      </ActionForm>
    </Section>
  )
}

function RoutingOrder(props: { readonly canEdit: boolean; readonly version: number }) {
  const [country, setCountry] = useState("TZ")
  const routes = useLoad<CountryRoutesView>(() => api("GET", `/country-routes/${encodeURIComponent(country)}`), [
    country,
    props.version
  ])
  const action = useAction()
  const order = routes.data?.routes ?? []
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
  const providers = useLoad<ReadonlyArray<ProviderView>>(() => api("GET", "/providers"), [version])
  const action = useAction()
  const [creditCountry, setCreditCountry] = useState("TZ")
  const [creditUnits, setCreditUnits] = useState("")
  return (
    <>
      <Listing title="Providers" loaded={providers} error={action.error} rowKey={(p) => p.uid}>
        {[
          ["Name", (p) => p.name],
          ["Kind", (p) => p.kind],
          ["Status", (p) => <Status status={p.enabled ? "enabled" : "disabled"} />],
          ["Bind", (p) => (p.bind_up === null ? "—" : p.bind_up === 1 ? "bound" : "down")],
          ["Credit", (p) => p.credits.map((c) => `${c.country} ${c.balance}`).join(", ")],
          ["", (p) =>
            may("providers.manage") && (
              <>
                <Toggle
                  action={action}
                  on={p.enabled}
                  path={`/providers/${p.uid}`}
                  name={p.name}
                  then={providers.reload}
                />
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
            )]
        ]}
      </Listing>
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

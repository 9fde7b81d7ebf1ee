/**
 * Providers: live bind state, credit per country, routing order per market; add (SMPP credentials
 * are write-only: sent once, never shown again), enable, disable, credit. Running workers pick the
 * change up without a restart (the provider registry is live, decisions §30). Disabling the last
 * carrier of an open market asks for a confirmation (the server refuses it without one, 409
 * `provider.last_carrier`; decisions "Carrier coverage").
 */
import { useState } from "react"
import { api, ApiError } from "../api.js"
import { ActionForm, Field, Input, Select, Toggle, useAction, useForm } from "../forms.js"
import { useMay } from "../session.js"
import { ErrorBox, Listing, Loading, Name, Say, Section, Status, useLoad, useT } from "../ui.js"
import type { CountryRoutesView, ProviderView } from "../views.js"

function AddProvider(props: { readonly onAdded: () => void }) {
  const t = useT()
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
    <Section title={t("Add a provider")}>
      <ActionForm
        submit={t("Add provider")}
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
        <Input label={t("Provider name")} {...form.bind("name")} />
        <Select
          label={t("Kind")}
          options={[["simulated", t("simulated")], ["smpp", "SMPP"]]}
          {...form.bind("kind")}
        />
        {kind === "smpp" && (
          <fieldset>
            <legend>{t("SMPP credentials (write-only: never shown again)")}</legend>
            <Input label={t("Host")} {...form.bind("host")} />
            <Input label={t("Port")} type="number" {...form.bind("port")} />
            <Input label={t("System ID")} autoComplete="off" {...form.bind("systemId")} />
            <Input label={t("SMPP password")} type="password" autoComplete="new-password" {...form.bind("secret")} />
          </fieldset>
        )}
        <Input label={t("Country")} {...form.bind("country")} />
        <Input label={t("Initial credit")} type="number" {...form.bind("credit")} />
      </ActionForm>
    </Section>
  )
}

function RoutingOrder(props: { readonly canEdit: boolean; readonly version: number }) {
  const t = useT()
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
    <Section title={t("Routing order")}>
      <Field label={t("Market")}>
        <input type="text" value={country} onChange={(e) => setCountry(e.currentTarget.value.toUpperCase())} />
      </Field>
      <Loading loaded={routes} />
      <ol>
        {order.map((r, i) => (
          <li key={r.route_uid}>
            <Say text="{provider} (credit {credit})" vars={{ provider: r.provider_name, credit: r.credit }} />
            {r.provider_enabled ? "" : ` — ${t("disabled")}`}
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
                <Say text="Move {name} up" vars={{ name: r.provider_name }} />
              </button>
            )}
          </li>
        ))}
      </ol>
      <ErrorBox error={action.error} />
    </Section>
  )
}

/** A carrier whose disabling waits for the operator's confirmation, and the markets it would leave. */
interface Confirming {
  readonly uid: string
  readonly name: string
  readonly markets: string
}

/**
 * "Disable x": one call; when the server answers that x is the last carrier of a market
 * (`provider.last_carrier`), the confirmation panel instead of an error.
 */
function DisableButton(props: {
  readonly action: ReturnType<typeof useAction>
  readonly provider: ProviderView
  readonly onConfirm: (c: Confirming) => void
  readonly then: () => void
}) {
  const { provider } = props
  return (
    <button
      type="button"
      disabled={props.action.busy}
      onClick={() =>
        void props.action.run(async () => {
          try {
            await api("POST", `/providers/${provider.uid}/disable`)
          } catch (e) {
            const said = e instanceof ApiError ? e.details?.message : undefined
            if (said?.code !== "provider.last_carrier") throw e
            props.onConfirm({ uid: provider.uid, name: provider.name, markets: said.params.markets ?? "" })
            return
          }
          props.then()
        })}
    >
      <Say text="Disable {name}" vars={{ name: provider.name }} />
    </button>
  )
}

/** The confirmation of disabling the last carrier of a market. */
function ConfirmNoRoute(props: {
  readonly confirming: Confirming
  readonly action: ReturnType<typeof useAction>
  readonly onDone: () => void
}) {
  const t = useT()
  const { markets, name, uid } = props.confirming
  return (
    <div role="alertdialog" aria-label={t("Disable {name}?", { name })} className="card confirm">
      <h2>
        <Say text="Disable {name}?" vars={{ name }} />
      </h2>
      <p>
        <Say
          text={"{name} is the only carrier of {markets}. Once it is disabled, sends there are accepted and then fail with \"no carrier route\"."}
          vars={{ name, markets }}
        />
      </p>
      <div className="actions">
        <button
          type="button"
          disabled={props.action.busy}
          onClick={() =>
            void props.action.run(() => api("POST", `/providers/${uid}/disable`, { confirm_no_route: true }))
              .then(props.onDone)}
        >
          <Say text="Disable {name} anyway" vars={{ name }} />
        </button>
        <button type="button" onClick={props.onDone}>
          <Say text="Keep {name} enabled" vars={{ name }} />
        </button>
      </div>
    </div>
  )
}

/** The Providers page. */
export function ProvidersPage() {
  const t = useT()
  const may = useMay()
  const [version, setVersion] = useState(0)
  const providers = useLoad<ReadonlyArray<ProviderView>>(() => api("GET", "/providers"), [version])
  const action = useAction()
  const [confirming, setConfirming] = useState<Confirming | null>(null)
  const [creditCountry, setCreditCountry] = useState("TZ")
  const [creditUnits, setCreditUnits] = useState("")
  const changed = () => {
    setConfirming(null)
    setVersion((v) => v + 1)
  }
  return (
    <>
      <Listing title={t("Providers")} loaded={providers} error={action.error} rowKey={(p) => p.uid}>
        {[
          [t("Name"), (p) => <Name>{p.name}</Name>],
          [t("Kind"), (p) => (p.kind === "smpp" ? "SMPP" : t(p.kind))],
          [t("Status"), (p) => <Status status={p.enabled ? "enabled" : "disabled"} />],
          [t("Bind"), (p) => (p.bind_up === null ? "—" : p.bind_up === 1 ? t("bound") : t("down"))],
          [t("Credit"), (p) => p.credits.map((c) => `${c.country} ${c.balance}`).join(", ")],
          ["", (p) =>
            may("providers.manage") && (
              <>
                {p.enabled
                  ? <DisableButton action={action} provider={p} onConfirm={setConfirming} then={changed} />
                  : (
                    <Toggle
                      action={action}
                      on={p.enabled}
                      path={`/providers/${p.uid}`}
                      name={p.name}
                      then={changed}
                    />
                  )}
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
                  <Say text="Set credit of {name}" vars={{ name: p.name }} />
                </button>
              </>
            )]
        ]}
      </Listing>
      {confirming !== null && <ConfirmNoRoute confirming={confirming} action={action} onDone={changed} />}
      {may("providers.manage") && (
        <div className="filters">
          <Field label={t("Credit country")}>
            <input type="text" value={creditCountry} onChange={(e) => setCreditCountry(e.currentTarget.value)} />
          </Field>
          <Field label={t("Credit units")}>
            <input type="number" value={creditUnits} onChange={(e) => setCreditUnits(e.currentTarget.value)} />
          </Field>
        </div>
      )}
      <RoutingOrder canEdit={may("providers.manage")} version={version} />
      {may("providers.manage") && <AddProvider onAdded={() => setVersion((v) => v + 1)} />}
    </>
  )
}

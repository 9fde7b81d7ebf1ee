/** Routes and markets: open and close markets; verify an account's route for a country. */
import { useState } from "react"
import { api } from "../api.js"
import { ActionForm, Input, Toggle, useAction, useForm } from "../forms.js"
import { useMay } from "../session.js"
import { Listing, Section, Status, useLoad, useT } from "../ui.js"
import type { MarketView, VerifiedRouteView } from "../views.js"
import { AccountPicker } from "./Accounts.js"

/** The Routes and markets page. */
export function MarketsPage() {
  const t = useT()
  const may = useMay()
  const markets = useLoad<ReadonlyArray<MarketView>>(() => api("GET", "/markets"), [])
  const action = useAction()
  const [account, setAccount] = useState("")
  const form = useForm({ country: "TZ", phone: "" })
  return (
    <>
      <Listing title={t("Routes and markets")} loaded={markets} error={action.error} rowKey={(m) => m.iso2}>
        {[
          [t("Country"), (m) => m.iso2],
          [t("Name"), (m) => m.name],
          [t("Status"), (m) => <Status status={m.open ? "open" : "closed"} />],
          ["", (m) =>
            may("markets.manage") && (
              <Toggle
                action={action}
                on={m.open}
                path={`/markets/${m.iso2}`}
                name={m.name}
                verbs={["close", "open"]}
                then={markets.reload}
              />
            )]
        ]}
      </Listing>
      {may("markets.manage") && (
        <Section title={t("Verify a route")}>
          <ActionForm
            submit={t("Verify route")}
            run={async () => {
              const r = await api<VerifiedRouteView>("POST", "/routes/verify", { account_uid: account, ...form.values })
              return t("Route verified for {country} with {phone}.", { country: r.country, phone: r.phone })
            }}
          >
            <AccountPicker value={account} onChange={setAccount} />
            <Input label={t("Country")} {...form.bind("country")} />
            <Input label={t("Verified phone")} type="tel" {...form.bind("phone")} />
          </ActionForm>
        </Section>
      )}
    </>
  )
}

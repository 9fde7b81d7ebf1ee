/** Routes and markets: open and close markets; verify an account's route for a country. */
import { useState } from "react"
import { api } from "../api.js"
import { ActionForm, Input, Toggle, useAction, useForm } from "../forms.js"
import { useMay } from "../session.js"
import { Listing, Section, Status, useLoad } from "../ui.js"
import type { MarketView, VerifiedRouteView } from "../views.js"
import { AccountPicker } from "./Accounts.js"

/** The Routes and markets page. */
export function MarketsPage() {
  const may = useMay()
  const markets = useLoad<ReadonlyArray<MarketView>>(() => api("GET", "/markets"), [])
  const action = useAction()
  const [account, setAccount] = useState("")
  const form = useForm({ country: "TZ", phone: "" })
  return (
    <>
      <Listing title="Routes and markets" loaded={markets} error={action.error} rowKey={(m) => m.iso2}>
        {[
          ["Country", (m) => m.iso2],
          ["Name", (m) => m.name],
          ["Status", (m) => <Status status={m.open ? "open" : "closed"} />],
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
        <Section title="Verify a route">
          <ActionForm
            submit="Verify route"
            run={async () => {
              const r = await api<VerifiedRouteView>("POST", "/routes/verify", { account_uid: account, ...form.values })
              return `Route verified for ${r.country} with ${r.phone}.`
            }}
          >
            <AccountPicker value={account} onChange={setAccount} />
            <Input label="Country" {...form.bind("country")} />
            <Input label="Verified phone" type="tel" {...form.bind("phone")} />
          </ActionForm>
        </Section>
      )}
    </>
  )
}

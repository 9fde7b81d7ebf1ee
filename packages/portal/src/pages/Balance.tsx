/** Wallets, the ledger and purchases. */
import { useState } from "react"
import { call } from "../api.js"
import { formatNumber } from "../format.js"
import { useI18n } from "../i18n.js"
import { Link } from "../router.js"
import { Field, Loading, PageTitle, Time, useLoad } from "../ui.js"
import { LoadedTable, Tiles } from "../widgets.js"

const KINDS = ["purchase", "debit", "refund", "adjustment"] as const
type Kind = (typeof KINDS)[number]

export function BalancePage() {
  const { t, lang } = useI18n()
  const wallets = useLoad(() => call((c) => c.portalAccount.wallets()), [])
  const purchases = useLoad(() => call((c) => c.portalAccount.purchases()), [])
  const [kind, setKind] = useState<Kind | "">("")
  const ledger = useLoad(
    () => call((c) => c.portalAccount.ledger({ urlParams: { ...(kind !== "" ? { kind } : {}), limit: 100 } })),
    [kind]
  )
  const kindName = (k: string) => t(k.charAt(0).toUpperCase() + k.slice(1))
  return (
    <>
      <PageTitle>{t("Balance")}</PageTitle>
      <section aria-labelledby="wallets">
        <h2 id="wallets">{t("Wallets")}</h2>
        <Loading loaded={wallets} />
        <Tiles
          items={wallets.data?.data ?? []}
          itemKey={(w) => w.wallet_uid}
          balance={(w) => w.balance}
          label={(w) => `${w.country} (+${w.calling_code}) · ${w.enabled ? t("enabled") : t("disabled")}`}
        />
      </section>
      <section aria-labelledby="purchases">
        <h2 id="purchases">{t("Purchases")}</h2>
        <LoadedTable
          loaded={purchases}
          empty={t("No purchases yet.")}
          rowKey={(p) => p.id}
          columns={[
            [t("Time"), (p) => <Time iso={p.created_at} />],
            [t("Country"), (p) => p.country],
            [t("Units"), (p) => formatNumber(p.units, lang)],
            [t("Amount"), (p) => p.amount === null ? "—" : `${p.amount} ${p.currency ?? ""}`],
            [t("Reference"), (p) => p.reference ?? ""]
          ]}
        />
      </section>
      <section aria-labelledby="ledger">
        <h2 id="ledger">{t("Ledger")}</h2>
        <Field label={t("Kind")}>
          <select value={kind} onChange={(e) => setKind(e.currentTarget.value as Kind | "")}>
            <option value="">{t("Any")}</option>
            {KINDS.map((k) => <option key={k} value={k}>{kindName(k)}</option>)}
          </select>
        </Field>
        <LoadedTable
          loaded={ledger}
          rowKey={(l) => l.id}
          columns={[
            [t("Time"), (l) => <Time iso={l.created_at} />],
            [t("Country"), (l) => l.country],
            [t("Kind"), (l) => kindName(l.kind)],
            [t("Units"), (l) => formatNumber(l.units, lang)],
            [t("Balance after"), (l) => formatNumber(l.balance_after, lang)],
            [t("For"), (l) =>
              l.message_uid !== null
                ? <Link to={`/messages/${l.message_uid}`}>{t("message")}</Link>
                : l.campaign_uid !== null
                ? <Link to={`/campaigns/${l.campaign_uid}`}>{t("campaign")}</Link>
                : l.reference ?? l.reason ?? ""]
          ]}
        />
      </section>
    </>
  )
}

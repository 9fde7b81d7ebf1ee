/** Wallets, the ledger and purchases. */
import { useState } from "react"
import { call } from "../api.js"
import { formatNumber } from "../format.js"
import { useI18n } from "../i18n.js"
import { Link } from "../router.js"
import { Field, Loading, PageTitle, Time, useLoad } from "../ui.js"

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
        <ul className="tiles">
          {wallets.data?.data.map((w) => (
            <li key={w.wallet_uid} className="tile">
              <span className="big">{formatNumber(w.balance, lang)}</span>
              <span>{w.country} (+{w.calling_code}) · {w.enabled ? t("enabled") : t("disabled")}</span>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="purchases">
        <h2 id="purchases">{t("Purchases")}</h2>
        <Loading loaded={purchases} />
        {purchases.data !== undefined && (purchases.data.data.length === 0 ? <p>{t("No purchases yet.")}</p> : (
          <table>
            <thead>
              <tr>
                <th scope="col">{t("Time")}</th>
                <th scope="col">{t("Country")}</th>
                <th scope="col">{t("Units")}</th>
                <th scope="col">{t("Amount")}</th>
                <th scope="col">{t("Reference")}</th>
              </tr>
            </thead>
            <tbody>
              {purchases.data.data.map((p) => (
                <tr key={p.id}>
                  <td>
                    <Time iso={p.created_at} />
                  </td>
                  <td>{p.country}</td>
                  <td>{formatNumber(p.units, lang)}</td>
                  <td>{p.amount === null ? "—" : `${p.amount} ${p.currency ?? ""}`}</td>
                  <td>{p.reference ?? ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
      </section>
      <section aria-labelledby="ledger">
        <h2 id="ledger">{t("Ledger")}</h2>
        <Field label={t("Kind")}>
          <select value={kind} onChange={(e) => setKind(e.currentTarget.value as Kind | "")}>
            <option value="">{t("Any")}</option>
            {KINDS.map((k) => <option key={k} value={k}>{kindName(k)}</option>)}
          </select>
        </Field>
        <Loading loaded={ledger} />
        {ledger.data !== undefined && (
          <table>
            <thead>
              <tr>
                <th scope="col">{t("Time")}</th>
                <th scope="col">{t("Country")}</th>
                <th scope="col">{t("Kind")}</th>
                <th scope="col">{t("Units")}</th>
                <th scope="col">{t("Balance after")}</th>
                <th scope="col">{t("For")}</th>
              </tr>
            </thead>
            <tbody>
              {ledger.data.data.map((l) => (
                <tr key={l.id}>
                  <td>
                    <Time iso={l.created_at} />
                  </td>
                  <td>{l.country}</td>
                  <td>{kindName(l.kind)}</td>
                  <td>{formatNumber(l.units, lang)}</td>
                  <td>{formatNumber(l.balance_after, lang)}</td>
                  <td>
                    {l.message_uid !== null
                      ? <Link to={`/messages/${l.message_uid}`}>{t("message")}</Link>
                      : l.campaign_uid !== null
                      ? <Link to={`/campaigns/${l.campaign_uid}`}>{t("campaign")}</Link>
                      : l.reference ?? ""}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  )
}

/** The language picker (English / Kiswahili), on the signed-in shell and on the anonymous pages. */
import { type Lang, useI18n } from "./i18n.js"

export function LanguageSwitch() {
  const { lang, setLang, t } = useI18n()
  return (
    <label className="lang">
      <span>{t("Language")}</span>
      <select value={lang} onChange={(e) => setLang(e.currentTarget.value as Lang)}>
        <option value="en">English</option>
        <option value="sw">Kiswahili</option>
      </select>
    </label>
  )
}

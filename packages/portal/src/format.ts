/** Dates and numbers in the user's language and time zone (Intl; default Africa/Dar_es_Salaam). */
import type { Lang } from "./i18n.js"

export const DEFAULT_TIME_ZONE = "Africa/Dar_es_Salaam"

const locale = (lang: Lang) => (lang === "sw" ? "sw-TZ" : "en-GB")

const formatters = new Map<string, Intl.DateTimeFormat>()

const zoneOrDefault = (zone: string) => {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone })
    return zone
  } catch {
    return DEFAULT_TIME_ZONE
  }
}

export const formatDateTime = (iso: string | null | undefined, lang: Lang, zone: string): string => {
  if (iso === null || iso === undefined || iso === "") return "—"
  const key = `${lang}|${zone}`
  let f = formatters.get(key)
  if (f === undefined) {
    f = new Intl.DateTimeFormat(locale(lang), {
      dateStyle: "medium",
      timeStyle: "medium",
      timeZone: zoneOrDefault(zone)
    })
    formatters.set(key, f)
  }
  const d = new Date(iso)
  return Number.isNaN(d.getTime()) ? iso : f.format(d)
}

export const formatDay = (date: string, lang: Lang): string => {
  // `YYYY-MM-DD` of the server's day list: shown as that calendar day, whatever the zone
  const d = new Date(`${date}T12:00:00Z`)
  return Number.isNaN(d.getTime())
    ? date
    : new Intl.DateTimeFormat(locale(lang), { day: "numeric", month: "short", timeZone: "UTC" })
      .format(d)
}

export const formatNumber = (n: number, lang: Lang): string => new Intl.NumberFormat(locale(lang)).format(n)

export const formatPercent = (n: number, lang: Lang): string =>
  new Intl.NumberFormat(locale(lang), { style: "percent", maximumFractionDigits: 1 }).format(n)

/** The `datetime-local` value (in `zone`) as an ISO instant with the zone's offset. */
export const zonedLocalToIso = (local: string, zone: string): string => {
  // local = "YYYY-MM-DDTHH:MM"; find the offset of `zone` at that wall time
  const asUtc = new Date(`${local}:00Z`)
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: zoneOrDefault(zone),
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit"
  }).formatToParts(asUtc)
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value)
  const wall = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"))
  const offset = wall - asUtc.getTime()
  return new Date(asUtc.getTime() - offset).toISOString()
}

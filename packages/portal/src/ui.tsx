/** Small shared pieces: loading, errors, times, statuses, form fields. */
import { codePointLabel } from "@tuma/domain/codePointClass"
import { describeMessage } from "@tuma/domain/messages"
import type { ReactNode } from "react"
import type { ApiError } from "./api.js"
import { characterName } from "./characters.js"
import { formatDateTime } from "./format.js"
import { useI18n } from "./i18n.js"
import { useZone } from "./session.js"
import { ErrorAlert, Field } from "./shared/fields.js"
import type { Loaded } from "./shared/hooks.js"
import { renderServerText } from "./shared/messages.js"

export { Field } from "./shared/fields.js"
export { type Loaded, useAction, useLoad } from "./shared/hooks.js"

/** The labels of the request fields a form shows (the API's names never reach a person). */
const fieldLabels: Record<string, string> = {
  recipient: "Recipient",
  recipients: "Recipients",
  sender_id: "Sender ID",
  body: "Message",
  message: "Message",
  scheduled_at: "Send at",
  campaign_name: "Campaign name",
  sample_message: "Sample message",
  purpose: "Purpose",
  url: "URL",
  email: "Email",
  password: "Password",
  name: "Name"
}

/** `recipients.3.to` → "Recipient 4"; a known field → its label; else undefined. */
export const fieldLabel = (t: (s: string, v?: Record<string, string | number>) => string) => (field: string) => {
  const row = /^recipients\.(\d+)(\.to)?$/.exec(field)
  if (row !== null) return t("Recipient {n}", { n: Number(row[1]) + 1 })
  const known = fieldLabels[field]
  return known === undefined ? undefined : t(known)
}

/** A text the server wrote (failure reason, rule, notice) in the reader's language: `say(text)`. */
export const useServerText = () => {
  const { t, lang } = useI18n()
  const label = fieldLabel(t)
  return (text: string) =>
    renderServerText(t, text, {
      label,
      characterName: (c, name) => c === "" ? name : characterName(lang, t, codePointLabel(c.codePointAt(0) ?? 0), name)
    })
}

/**
 * A text the server stored (a failure reason, a receipt's detail): in the reader's language when the
 * catalogue knows it, else as written — someone else's words (a carrier's, an operator's), marked so.
 */
export function ServerText(props: { readonly text: string }) {
  const say = useServerText()
  const said = say(props.text)
  return said === props.text && describeMessage(props.text) === undefined
    ? <span translate="no">{props.text}</span>
    : <>{said}</>
}

export function ErrorBox(props: { readonly error: ApiError | undefined }) {
  const { t } = useI18n()
  return (
    <ErrorAlert
      error={props.error}
      label={fieldLabel(t)}
      t={t}
      message={(e) =>
        e.status === 403 && e.code === "OWNER_REQUIRED" ? t("Only an owner of the account can do this.") : undefined}
    />
  )
}

export function Loading(props: { readonly loaded: Loaded<unknown> }) {
  const { t } = useI18n()
  if (props.loaded.error !== undefined) return <ErrorBox error={props.loaded.error} />
  if (props.loaded.data === undefined) return <p aria-live="polite">{t("Loading…")}</p>
  return null
}

export function Time(props: { readonly iso: string | null | undefined }) {
  const { lang } = useI18n()
  const zone = useZone()
  if (props.iso === null || props.iso === undefined) return <span>—</span>
  return <time dateTime={props.iso}>{formatDateTime(props.iso, lang, zone)}</time>
}

const statusNames: Record<string, string> = {
  scheduled: "Scheduled",
  queued: "Queued",
  processing: "Processing",
  sent: "Sent",
  delivered: "Delivered",
  failed: "Failed",
  pending: "Pending",
  approved: "Approved",
  rejected: "Rejected",
  suspended: "Suspended",
  active: "Active",
  revoked: "Revoked",
  expired: "Expired",
  succeeded: "Succeeded",
  success: "Succeeded",
  failure: "Failed",
  enabled: "Enabled",
  disabled: "Disabled"
}

export function Status(props: { readonly status: string }) {
  const { t } = useI18n()
  const name = statusNames[props.status]
  return <span className={`status status-${props.status}`}>{name === undefined ? props.status : t(name)}</span>
}

export const statusLabel = (t: (s: string) => string, status: string) => {
  const name = statusNames[status]
  return name === undefined ? status : t(name)
}

export function PageTitle(props: { readonly children: ReactNode }) {
  return <h1>{props.children}</h1>
}

/** A secret shown once (API key, webhook secret): a read-only text field with its name. */
export function ShownOnce(props: { readonly label: string; readonly value: string }) {
  const { t } = useI18n()
  return (
    <div className="once" role="group" aria-label={props.label}>
      <Field label={props.label} hint={t("Copy it now: it is shown only once.")}>
        <input type="text" readOnly value={props.value} onFocus={(e) => e.currentTarget.select()} />
      </Field>
    </div>
  )
}

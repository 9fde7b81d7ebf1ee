/**
 * Server messages in the reader's language. The server's texts come with (or are given, by the domain's
 * catalogue) a code and parameters; the English template of the code is the key of its Kiswahili in
 * sw.ts, so nothing here reads English sentences. Parameters that are request fields are shown by the
 * name a person knows them by, statuses by their translated name.
 */
import type { DescribedMessage } from "@tuma/domain/messages"
import { describeMessage, messageTemplate } from "@tuma/domain/messages"

/** The translator of i18n.tsx (`t(english, vars)`). */
export type Translate = (en: string, vars?: Readonly<Record<string, string | number>>) => string

/** The name a person knows a request field by (`sender_id` → "Sender ID"), or undefined. */
export type FieldLabel = (field: string) => string | undefined

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)

/** How parameters that need more than a translation are shown. */
export interface RenderOptions {
  readonly label?: FieldLabel | undefined
  /** A character's name (`character` is the character itself, `name` its Unicode name). */
  readonly characterName?: ((character: string, name: string) => string) | undefined
}

/** One described message in the reader's language; `more` ("and N more errors") is left to the caller. */
export const renderDescribed = (t: Translate, d: DescribedMessage, options: RenderOptions = {}): string => {
  const label = options.label ?? (() => undefined)
  const template = messageTemplate(d.code)
  if (template === undefined) return d.code
  const params: Record<string, string> = {}
  for (const [k, v] of Object.entries(d.params)) {
    if (k === "field" || k === "other") params[k] = label(v) ?? v
    else if (k === "status" || k === "from") params[k] = t(capitalised(v))
    else if (k === "machine" || k === "event" || k === "resource") params[k] = t(v)
    else if (k === "character_name" && options.characterName !== undefined) {
      params[k] = options.characterName(d.params.character ?? "", v)
    } else params[k] = v
  }
  return t(template, params)
}

/**
 * A text the server wrote (a failure reason, a rule's description), in the reader's language when it is
 * one of the catalogue's; otherwise as written (a carrier's or an operator's own words).
 */
export const renderServerText = (t: Translate, text: string, options?: RenderOptions): string => {
  const d = describeMessage(text)
  return d === undefined ? text : renderDescribed(t, d, options)
}

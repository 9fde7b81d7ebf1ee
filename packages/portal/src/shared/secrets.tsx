/**
 * Showing a secret once, in the portal and the console: a QR code of an `otpauth://` address (drawn
 * here, `qr.ts`), a read-only text with a "Copy" button, and recovery codes to copy or download as
 * a `.txt`. Labels are given by the caller (the portal translates them, the console is English).
 */
import { useState } from "react"
import { Field } from "./fields.js"
import { qrMatrix, qrPath } from "./qr.js"

/** The QR code of `text` as an SVG image named `label`. */
export function QrCode(props: { readonly text: string; readonly label: string }) {
  const m = qrMatrix(props.text)
  const size = m.length + 8
  return (
    <svg
      role="img"
      aria-label={props.label}
      className="qr"
      viewBox={`0 0 ${size} ${size}`}
      width={size * 5}
      height={size * 5}
      shapeRendering="crispEdges"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={qrPath(m)} fill="#000" />
    </svg>
  )
}

/** Puts `text` on the clipboard; answers false where the browser refuses. */
const copy = async (text: string): Promise<boolean> => {
  try {
    await navigator.clipboard.writeText(text)
    return true
  } catch {
    return false
  }
}

/** A button copying `text`, then saying so (`done`) or, refused, asking to select it (`failed`). */
export function CopyButton(
  props: { readonly text: string; readonly label: string; readonly done: string; readonly failed: string }
) {
  const [state, setState] = useState<"idle" | "done" | "failed">("idle")
  return (
    <>
      <button type="button" onClick={() => void copy(props.text).then((ok) => setState(ok ? "done" : "failed"))}>
        {props.label}
      </button>
      {state !== "idle" && <span role="status">{state === "done" ? props.done : props.failed}</span>}
    </>
  )
}

/** A button downloading `text` as the file `filename` (plain text). */
export function DownloadButton(props: { readonly text: string; readonly filename: string; readonly label: string }) {
  return (
    <button
      type="button"
      onClick={() => {
        const url = URL.createObjectURL(new Blob([props.text], { type: "text/plain;charset=utf-8" }))
        const a = document.createElement("a")
        a.href = url
        a.download = props.filename
        document.body.append(a)
        a.click()
        a.remove()
        setTimeout(() => URL.revokeObjectURL(url), 1000)
      }}
    >
      {props.label}
    </button>
  )
}

/** A read-only text (a link, a secret) with its label and a copy button. */
export function CopyField(
  props: {
    readonly label: string
    readonly value: string
    readonly copy: string
    readonly done: string
    readonly failed: string
  }
) {
  return (
    <div className="copy-field">
      <Field label={props.label}>
        <input type="text" readOnly value={props.value} onFocus={(e) => e.currentTarget.select()} />
      </Field>
      <CopyButton text={props.value} label={props.copy} done={props.done} failed={props.failed} />
    </div>
  )
}

/** The words of `RecoveryCodeList` (English in the console, translated in the portal). */
export interface RecoveryWords {
  readonly title: string
  readonly explain: string
  readonly copy: string
  readonly copied: string
  readonly copyFailed: string
  readonly download: string
}

/** Recovery codes shown once: the list, "Copy codes" and "Download codes" (`<name>-recovery-codes.txt`). */
export function RecoveryCodeList(
  props: { readonly codes: ReadonlyArray<string>; readonly words: RecoveryWords; readonly fileName: string }
) {
  const text = `${props.words.title}\n\n${props.codes.join("\n")}\n`
  return (
    <>
      <p>{props.words.explain}</p>
      <ul aria-label={props.words.title} className="codes">
        {props.codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ul>
      <div className="actions">
        <CopyButton
          text={props.codes.join("\n")}
          label={props.words.copy}
          done={props.words.copied}
          failed={props.words.copyFailed}
        />
        <DownloadButton text={text} filename={props.fileName} label={props.words.download} />
      </div>
    </>
  )
}

/**
 * A PDF previewed inline without the browser's PDF viewer: pdf.js (loaded on first use) draws the
 * first pages into canvases. Chromium's viewer is a plugin frame of its own; beside it a decision's
 * click was sometimes lost (the viewer re-fetched the document and the page took no click).
 */
import { useEffect, useRef, useState } from "react"
import { useT } from "./ui.js"

/** Pages drawn at the most (a review reads the first pages; the link opens the whole document). */
const MAX_PAGES = 3

export function PdfPreview(props: { readonly src: string; readonly name: string }) {
  const t = useT()
  const holder = useRef<HTMLDivElement>(null)
  const [state, setState] = useState<"loading" | "ready" | "failed">("loading")
  useEffect(() => {
    let cancelled = false
    const run = async () => {
      const pdfjs = await import("pdfjs-dist")
      const worker = await import("pdfjs-dist/build/pdf.worker.min.mjs?url")
      pdfjs.GlobalWorkerOptions.workerSrc = worker.default
      const bytes = new Uint8Array(await (await fetch(props.src, { credentials: "same-origin" })).arrayBuffer())
      const doc = await pdfjs.getDocument({ data: bytes, isEvalSupported: false }).promise
      const canvases: Array<HTMLCanvasElement> = []
      for (let n = 1; n <= Math.min(doc.numPages, MAX_PAGES); n++) {
        const page = await doc.getPage(n)
        const viewport = page.getViewport({ scale: 1 })
        const canvas = document.createElement("canvas")
        canvas.width = viewport.width
        canvas.height = viewport.height
        canvas.style.maxWidth = "100%"
        canvas.style.border = "1px solid #ddd"
        const context = canvas.getContext("2d")
        if (context === null) throw new Error("no 2d context")
        await page.render({ canvasContext: context, viewport }).promise
        canvases.push(canvas)
      }
      if (cancelled || holder.current === null) return
      holder.current.replaceChildren(...canvases)
      setState("ready")
    }
    run().catch(() => {
      if (!cancelled) setState("failed")
    })
    return () => {
      cancelled = true
    }
  }, [props.src])
  return (
    <div>
      <div
        ref={holder}
        role="img"
        aria-label={t("Document {name}", { name: props.name })}
        aria-busy={state === "loading"}
        data-state={state}
        style={{ maxHeight: 480, overflow: "auto" }}
      />
      {state === "loading" && <p>{t("Loading the document…")}</p>}
      {state === "failed" && <p>{t("The document cannot be previewed here.")}</p>}
      <a href={props.src} target="_blank" rel="noreferrer">{t("Open {name}", { name: props.name })}</a>
    </div>
  )
}

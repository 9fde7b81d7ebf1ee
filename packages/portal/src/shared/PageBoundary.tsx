/**
 * A page that fails while rendering shows `fallback` in its place (the shell, its navigation and
 * language switch stay usable) instead of React unmounting the whole app to a blank screen. The
 * error is logged to the console as "tuma: a page failed" with its stack (browser tests fail on it).
 * `resetKey` (the path) starts the page afresh when it changes. `PageFailed` is the fallback both the
 * portal and the console show.
 */
import { Component, type ReactNode } from "react"
import { useI18n } from "../i18n.js"

interface Props {
  readonly resetKey: string
  readonly fallback: ReactNode
  readonly children: ReactNode
}

interface State {
  readonly failedAt: string | null
}

/** Catches a page's render failure (see the module comment). */
export class PageBoundary extends Component<Props, State> {
  override state: State = { failedAt: null }

  static getDerivedStateFromError(): Partial<State> {
    return { failedAt: "" }
  }

  override componentDidCatch(error: unknown): void {
    this.setState({ failedAt: this.props.resetKey })
    console.error("tuma: a page failed", error)
  }

  override render(): ReactNode {
    const failed = this.state.failedAt !== null &&
      (this.state.failedAt === "" || this.state.failedAt === this.props.resetKey)
    return failed ? this.props.fallback : this.props.children
  }
}

/** What a page that failed to render shows instead (PageBoundary): a message and a reload button. */
export function PageFailed() {
  const { t } = useI18n()
  return (
    <section className="card" role="alert">
      <h1>{t("This page could not be shown")}</h1>
      <p>
        {t(
          "Something went wrong on our side. Reload the page to try again; you may need to enter what you typed again."
        )}
      </p>
      <button type="button" onClick={() => globalThis.location.reload()}>{t("Reload the page")}</button>
    </section>
  )
}

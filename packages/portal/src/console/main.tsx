/** The operator console's entry (console.html, served by `tuma serve` under /console). */
import { StrictMode } from "react"
import { createRoot } from "react-dom/client"
import "../styles.css"
import { App } from "./App.js"

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App />
  </StrictMode>
)

/**
 * The portal's client-side router (`shared/router.tsx`): every page of the portal lives under
 * `/portal/…` (the server answers index.html for each, see PortalAssets.ts).
 */
import { makeRouter } from "./shared/router.js"

const router = makeRouter("/portal")

export const { BASE, currentPath, Link, navigate, usePath } = router

export const useQuery = () => {
  usePath()
  return new URLSearchParams(window.location.search)
}

/** Builds the portal once before its browser tests (nothing built is committed; see PortalAssets.ts). */
import { ensureBuilt } from "@tuma/http/portal/Assets"

export default async function setup() {
  await ensureBuilt()
}

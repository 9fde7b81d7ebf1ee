/**
 * The customer portal's HTTP contract (issue 14): endpoints under `/portal/api/…`, signed in with a
 * session cookie, every state change guarded by a CSRF token. Part of `TumaApi` (`Api.ts` adds it),
 * and usable alone: the browser app builds its typed client with
 * `HttpApiClient.make(PortalApi, { baseUrl })`.
 *
 * This module (and what it imports) must stay free of `node:` imports so that Vite can bundle it.
 *
 * Sessions and CSRF (docs/architecture.md "Portal users, sessions and CSRF"):
 * - `tuma_portal_session` cookie (HttpOnly, SameSite=Lax, Path=/portal, Secure behind https);
 * - every POST/PATCH/DELETE carries `X-CSRF-Token`: the session's token (from sign-in, `GET
 *   /portal/api/session` or `GET /portal/api/session/csrf`), or before sign-in the token of the
 *   `tuma_portal_csrf` cookie that `GET /portal/api/session/csrf` sets (double submit); a request
 *   whose `Origin` (or `Referer`) is not the portal's own origin is refused too (403).
 * - `PortalSession` endpoints answer 401 without a valid session; `PortalOwner` endpoints 403 for
 *   a member.
 * The declarations live by area in `portal/api/` (shared security, session, messaging, keys,
 * team, smpp); this module composes them and re-exports every schema the browser app imports.
 */
import { makeApi } from "../shared/apiSchemas.js"
import { Forbidden, NotFound, TooManyRequests, Unauthorized } from "../shared/Envelope.js"
import { PortalContactsGroup, PortalTemplatesGroup } from "./api/contacts.js"
import { PortalInboxGroup } from "./api/inbox.js"
import { PortalKeysGroup, PortalSenderIdsGroup } from "./api/keys.js"
import { PortalCampaignsGroup, PortalDashboardGroup, PortalMessagesGroup } from "./api/messaging.js"
import { PortalSessionGroup } from "./api/session.js"
import { PortalSmppGroup } from "./api/smpp.js"
import { PortalAccountGroup } from "./api/team.js"

export * from "./api/contacts.js"
export * from "./api/inbox.js"
export * from "./api/keys.js"
export * from "./api/messaging.js"
export * from "./api/session.js"
export * from "./api/shared.js"
export * from "./api/smpp.js"
export * from "./api/team.js"

const base = makeApi("portal")

/** The portal API alone (the browser app's typed client is built from it). */
export class PortalApi extends base
  .add(PortalSessionGroup)
  .add(PortalDashboardGroup)
  .add(PortalCampaignsGroup)
  .add(PortalMessagesGroup)
  .add(PortalContactsGroup)
  .add(PortalTemplatesGroup)
  .add(PortalSenderIdsGroup)
  .add(PortalKeysGroup)
  .add(PortalSmppGroup)
  .add(PortalAccountGroup)
  .add(PortalInboxGroup)
  .addError(Unauthorized)
  .addError(Forbidden)
  .addError(NotFound)
  .addError(TooManyRequests)
  .prefix("/portal/api")
{}

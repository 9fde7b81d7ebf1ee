/**
 * The customer portal's server side, assembled (issue 14; contract in `PortalApi.ts`):
 *
 *   layerServices   core's `PortalAccess` over the SQL `PortalStore`, the SQL `PortalReadStore`,
 *                   with a `Mailer` (invitations, resets) — part of the store layer (CLI too)
 *   layerHandlers   the ten groups' handlers
 *   layerHttp       the session/CSRF middlewares, `PortalRequest` and the `WebhookSender` of the
 *                   test event
 *
 * `PortalConfig` comes from `layerServices` (settings given, or `PortalConfig.layerFromConfig`).
 */
import type { Mailer, MailOutbox } from "@tuma/core"
import { Audit } from "@tuma/core/audit/Audit"
import { PortalAccess } from "@tuma/core/portal/PortalAccess"
import * as PortalAccessModule from "@tuma/core/portal/PortalAccess"
import type { PortalSettings } from "@tuma/core/portal/PortalConfig"
import { PortalConfig } from "@tuma/core/portal/PortalConfig"
import { layerMailerFromEnv } from "@tuma/providers"
import { layerHttpWebhookSender, webhookSenderOptionsFromEnv } from "@tuma/providers"
import { Layer } from "effect"
import { PortalAccountLive, PortalSessionLive } from "./AccessHandlers.js"
import { PortalContactsLive, PortalTemplatesLive } from "./ContactsHandlers.js"
import { PortalInboxLive } from "./InboxHandlers.js"
import { PortalKeysLive } from "./KeysHandlers.js"
import {
  PortalCampaignsLive,
  PortalDashboardLive,
  PortalMessagesLive,
  PortalSenderIdsLive
} from "./MessagingHandlers.js"
import { layerMiddlewares, PortalRequest } from "./Session.js"
import { PortalSmppLive } from "./SmppHandlers.js"

export interface PortalOptions {
  /** Default: `PortalConfig.layerFromConfig` (the environment). */
  readonly settings?: PortalSettings | undefined
  /** Default: `layerMailerFromEnv()` (TUMA_SMTP_URL; without it, mails go to the outbox, not sent). */
  readonly mailer?: Layer.Layer<Mailer, never, MailOutbox> | undefined
}

export const layerConfig = (options: PortalOptions = {}) =>
  options.settings ? Layer.succeed(PortalConfig, options.settings) : PortalConfig.layerFromConfig

export const layerServices = (options: PortalOptions = {}) =>
  PortalAccessModule.layer.pipe(
    Layer.provide(options.mailer ?? Layer.suspend(() => layerMailerFromEnv())),
    // invitations are recorded in the audit log (the same SQL store the server's `Audit` uses)
    Layer.provide(Audit.layer),
    Layer.provideMerge(layerConfig(options))
  )

export const layerHandlers = Layer.mergeAll(
  PortalSessionLive,
  PortalAccountLive,
  PortalDashboardLive,
  PortalCampaignsLive,
  PortalMessagesLive,
  PortalSenderIdsLive,
  PortalKeysLive,
  PortalSmppLive,
  PortalContactsLive,
  PortalTemplatesLive,
  PortalInboxLive
)

/** Needs `PortalConfig` (from `layerServices`), `PortalAccess` and `ServerConfig`. */
export const layerHttp = Layer.mergeAll(
  layerMiddlewares,
  Layer.suspend(() => layerHttpWebhookSender(webhookSenderOptionsFromEnv()))
).pipe(Layer.provideMerge(PortalRequest.layer))

export { PortalAccess }

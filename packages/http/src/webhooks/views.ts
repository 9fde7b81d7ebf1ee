/**
 * A webhook endpoint as the admin API and the portal answer it (snake_case, ISO strings; the
 * portal's schema leaves `account_uid` out when it encodes the answer).
 */
import type { WebhookEndpoint } from "@tuma/core"

const iso = (d: Date | null) => (d === null ? null : d.toISOString())

/** The wire view of a webhook endpoint (its secret never). */
export const endpointView = (e: WebhookEndpoint) => ({
  uid: e.id,
  account_uid: e.accountId,
  api_key_uid: e.apiKeyId,
  url: e.url,
  enabled: e.enabled,
  consecutive_failures: e.consecutiveFailures,
  disabled_at: iso(e.disabledAt),
  disabled_reason: e.disabledReason,
  events: e.events,
  created_at: e.createdAt.toISOString(),
  updated_at: e.updatedAt.toISOString()
})

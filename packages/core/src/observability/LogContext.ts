/**
 * Uids a log line should carry, known only part-way through a request (the message or campaign a
 * send created). The HTTP envelope gives each request a fresh record; the send decorator fills it;
 * the logger prints it on every line written afterwards in that request (the access log included).
 */
import { FiberRef } from "effect"
import { globalValue } from "effect/GlobalValue"

/** The uids a log line of a message's life carries. */
export interface LogUids {
  message_uid?: string
  campaign_uid?: string
}

/** The uids of the message or campaign the current fiber works on (annotated onto its log lines). */
export const currentLogUids: FiberRef.FiberRef<LogUids | undefined> = globalValue(
  "@tuma/core/observability/currentLogUids",
  () => FiberRef.unsafeMake<LogUids | undefined>(undefined)
)

/**
 * Opt-out by reply: an inbound message whose whole text is one word of the STOP family (trimmed, any
 * case, trailing `.` or `!` ignored; `inbound.ts`) opts its sender out of the account. "Stop the
 * meeting" is not a request; "stop!" is.
 */
import { inboundCommand, STOP_FAMILY } from "./inbound.js"

/** Words that opt a handset out when it sends them (the STOP family of `inbound.ts`). */
export const STOP_WORDS: ReadonlySet<string> = STOP_FAMILY

/** Whether an inbound text is a request to opt out (see the module comment). */
export const isStopRequest = (text: string): boolean => inboundCommand(text) === "stop"

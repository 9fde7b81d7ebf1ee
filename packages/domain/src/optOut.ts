/**
 * Opt-out by reply: an inbound message whose whole text is one of `STOP_WORDS` (trimmed, any case,
 * trailing `.` or `!` ignored) opts its sender out of the account that sent to it. "Stop the
 * meeting" is not a request; "stop!" is.
 */

/** Words that opt a handset out when it sends them. */
export const STOP_WORDS: ReadonlySet<string> = new Set(["STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT"])

/** Whether an inbound text is a request to opt out (see the module comment). */
export const isStopRequest = (text: string): boolean => STOP_WORDS.has(text.trim().toUpperCase().replace(/[.!]+$/, ""))

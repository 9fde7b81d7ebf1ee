/**
 * Tuma's log lines (issue 13): `TUMA_LOG_FORMAT=json|pretty`, `TUMA_LOG_LEVEL` (trace, debug, info,
 * warning, error, fatal, none; default info).
 *
 * Every line carries `request_uid` when it is written while a request is served (read from the
 * envelope's FiberRef, so no request pays for an annotation) and the log annotations in scope
 * (`message_uid`, `campaign_uid`, …). A cause is printed at warning and above only; at info and
 * below a line is its message and annotations, which never hold keys, secrets, passwords or
 * message bodies (docs/observability.md; a test greps for them).
 *
 *   json    {"ts":"…","level":"INFO","msg":"…","request_uid":"…","message_uid":"…"}
 *   pretty  2026-11-23T05:34:05.123Z INFO  msg request_uid=… message_uid=…
 */
import { currentLogUids } from "@tuma/core/observability/LogContext"
import type { LogLevel as LL } from "effect"
import { Cause, FiberRefs, HashMap, Layer, Logger, LogLevel } from "effect"
import { currentRequestId } from "../shared/Envelope.js"

export type LogFormat = "json" | "pretty"

export interface LogOptions {
  readonly format: LogFormat
  readonly level: LL.LogLevel
  /** Where lines go (default: stdout). */
  readonly sink?: ((line: string) => void) | undefined
}

const LEVELS: Record<string, LL.LogLevel> = {
  all: LogLevel.All,
  trace: LogLevel.Trace,
  debug: LogLevel.Debug,
  info: LogLevel.Info,
  warn: LogLevel.Warning,
  warning: LogLevel.Warning,
  error: LogLevel.Error,
  fatal: LogLevel.Fatal,
  none: LogLevel.None
}

export const parseLevel = (value: string | undefined): LL.LogLevel => {
  if (value === undefined || value === "") return LogLevel.Info
  const level = LEVELS[value.toLowerCase()]
  if (level === undefined) throw new Error(`TUMA_LOG_LEVEL: one of ${Object.keys(LEVELS).join(", ")}, not ${value}`)
  return level
}

export const parseFormat = (value: string | undefined, tty: boolean): LogFormat => {
  if (value === undefined || value === "") return tty ? "pretty" : "json"
  if (value === "json" || value === "pretty") return value
  throw new Error(`TUMA_LOG_FORMAT: json or pretty, not ${value}`)
}

const text = (message: unknown): string => {
  if (Array.isArray(message)) return message.map(text).join(" ")
  if (typeof message === "string") return message
  if (message instanceof Error) return message.message
  try {
    return JSON.stringify(message)
  } catch {
    return String(message)
  }
}

const scalar = (v: unknown): unknown =>
  v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean" ? v : text(v)

export const makeLogger = (options: LogOptions) => {
  const sink = options.sink ?? ((line: string) => void process.stdout.write(line + "\n"))
  const json = options.format === "json"
  return Logger.make<unknown, void>(({ annotations, cause, context, date, logLevel, message }) => {
    const fields: Record<string, unknown> = {}
    const requestUid = FiberRefs.getOrDefault(context, currentRequestId)
    if (requestUid !== "") fields.request_uid = requestUid
    const uids = FiberRefs.getOrDefault(context, currentLogUids)
    if (uids !== undefined) {
      if (uids.message_uid !== undefined) fields.message_uid = uids.message_uid
      if (uids.campaign_uid !== undefined) fields.campaign_uid = uids.campaign_uid
    }
    for (const [k, v] of HashMap.toEntries(annotations)) fields[k] = scalar(v)
    const withCause = !Cause.isEmpty(cause) && logLevel.ordinal >= LogLevel.Warning.ordinal
    if (json) {
      sink(JSON.stringify({
        ts: date.toISOString(),
        level: logLevel.label,
        msg: text(message),
        ...fields,
        ...(withCause ? { cause: Cause.pretty(cause) } : {})
      }))
    } else {
      let line = `${date.toISOString()} ${logLevel.label.padEnd(5)} ${text(message)}`
      for (const k in fields) line += ` ${k}=${typeof fields[k] === "string" ? fields[k] : JSON.stringify(fields[k])}`
      if (withCause) line += `\n${Cause.pretty(cause)}`
      sink(line)
    }
  })
}

/** Replaces Effect's default logger and sets the minimum level. */
export const layer = (options: LogOptions) =>
  Layer.merge(
    Logger.replace(Logger.defaultLogger, makeLogger(options)),
    Logger.minimumLogLevel(options.level)
  )

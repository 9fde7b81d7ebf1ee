/** Settings of an SMPP carrier connection (smpp/SmppClient.ts, smpp/SmppProvider.ts). */
/**
 * Settings of an SMPP carrier connection: address, credentials, window, keep-alive and response timeouts,
 * reconnection and throttling back-off, which statuses are transient.
 */
export interface SmppProviderConfig {
  readonly id: string
  readonly host: string
  readonly port: number
  readonly systemId: string
  readonly password: string
  readonly systemType?: string
  /** Outstanding submit_sm without an answer (default 50). */
  readonly window?: number
  /** At most this many submit_sm on this bind in any second (smpp/bindRate.ts); default: no limit. */
  readonly maxPerSecondPerBind?: number
  /** enquire_link period (default 30 s). */
  readonly enquireLinkMs?: number
  /** A submit_sm (or enquire_link) unanswered for this long is Unknown (default 10 s). */
  readonly responseTimeoutMs?: number
  /** How long a submit may wait for a bound session before a transient NotAccepted (default 5 s). */
  readonly unavailableAfterMs?: number
  readonly reconnectInitialMs?: number
  readonly reconnectMaxMs?: number
  readonly throttleInitialMs?: number
  readonly throttleMaxMs?: number
  readonly throttleGiveUpMs?: number
  /** Ask for delivery receipts (registered_delivery 1, default true). */
  readonly registeredDelivery?: boolean
  /** Statuses treated as transient on top of the defaults (names like "ESME_RINVDSTADR" or numbers). */
  readonly transientStatuses?: ReadonlyArray<number>
}

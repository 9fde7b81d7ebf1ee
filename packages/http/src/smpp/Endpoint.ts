/**
 * Where customers connect over SMPP, for the portal's and the console's connection instructions: the
 * SMPP listener of this process fills it once it listens (its real port, also when asked for port 0);
 * `publicHost` (`TUMA_SMPP_PUBLIC_HOST`) is the name customers use, else the host the browser reached
 * the portal at. Empty when this server offers no SMPP.
 */
import { Context } from "effect"

/** What the listener fills. */
export interface SmppEndpointValue {
  readonly host: string
  /** The plain port (none when only the TLS port is configured). */
  readonly port: number | null
  /** The TLS port, when one is configured. */
  readonly tlsPort: number | null
  /** The host name to tell customers (none: the portal's own host name). */
  readonly publicHost: string | null
}

/** The holder of this process's SMPP endpoint. */
export class SmppEndpoint extends Context.Tag("@tuma/http/SmppEndpoint")<SmppEndpoint, {
  current: SmppEndpointValue | undefined
}>() {
  /** An empty holder (filled by the listener). */
  static readonly make = (): SmppEndpoint["Type"] => ({ current: undefined })
}

/** The host name customers should connect to, given the host the request reached us at. */
export const customerHost = (endpoint: SmppEndpointValue, requestHost: string | undefined): string => {
  if (endpoint.publicHost !== null) return endpoint.publicHost
  const wildcard = endpoint.host === "0.0.0.0" || endpoint.host === "::" || endpoint.host === ""
  const fromRequest = requestHost?.replace(/:\d+$/, "").replace(/^\[|\]$/g, "")
  return wildcard || endpoint.host === "127.0.0.1" ? fromRequest ?? endpoint.host : endpoint.host
}

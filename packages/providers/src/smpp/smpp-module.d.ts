/**
 * Types for the parts of the untyped `smpp` package (node-smpp 0.5) that Tuma uses.
 * PDU fields are SMPP parameter names; TLVs appear as properties by their tag name.
 */
declare module "smpp" {
  import type { EventEmitter } from "node:events"
  import type { Server as NetServer, Socket } from "node:net"

  namespace smpp {
    export interface ShortMessage {
      readonly udh?: ReadonlyArray<Buffer>
      readonly message: string | Buffer
    }

    export class PDU {
      constructor(command: string, options?: Record<string, unknown>)
      command: string
      command_id: number
      command_status: number
      sequence_number: number
      // common parameters (present depending on the command)
      system_id?: string
      password?: string
      system_type?: string
      message_id?: string
      source_addr_ton?: number
      source_addr_npi?: number
      source_addr?: string
      dest_addr_ton?: number
      dest_addr_npi?: number
      destination_addr?: string
      esm_class?: number
      registered_delivery?: number
      data_coding?: number
      short_message?: ShortMessage | Buffer | string
      message_payload?: ShortMessage | Buffer | string
      receipted_message_id?: string
      message_state?: number
      network_error_code?: Buffer;
      [key: string]: unknown
      isResponse(): boolean
      response(options?: Record<string, unknown>): PDU
      toBuffer(): Buffer
    }

    export type ResponseCallback = (pdu: PDU) => void

    export class Session extends EventEmitter {
      constructor(options: Record<string, unknown>)
      socket: Socket
      server?: Server
      send(pdu: PDU, responseCallback?: ResponseCallback, sendCallback?: ResponseCallback): boolean
      pause(): void
      resume(): void
      close(callback?: () => void): void
      destroy(callback?: () => void): void
      bind_transceiver(options: Record<string, unknown>, cb?: ResponseCallback): boolean
      submit_sm(options: Record<string, unknown>, cb?: ResponseCallback, sendCb?: ResponseCallback): boolean
      deliver_sm(options: Record<string, unknown>, cb?: ResponseCallback, sendCb?: ResponseCallback): boolean
      enquire_link(options?: Record<string, unknown> | ResponseCallback, cb?: ResponseCallback): boolean
      unbind(options?: Record<string, unknown> | ResponseCallback, cb?: ResponseCallback): boolean
      query_sm(options: Record<string, unknown>, cb?: ResponseCallback): boolean
    }

    export class Server extends NetServer {
      sessions: Array<Session>
    }

    export function createServer(options: Record<string, unknown>, listener?: (session: Session) => void): Server
    export function createServer(listener?: (session: Session) => void): Server
    export function connect(options: Record<string, unknown>, listener?: () => void): Session

    export const gsmCoder: {
      encode(text: string, shift: number): Buffer
      decode(data: Buffer, shift: number): string
      /** The (lazily built) tables of a shift table: 0 = default alphabet. */
      getCoder(shift: number): {
        readonly chars: string
        readonly extChars: string
        readonly charListEnc: Record<string, number>
        readonly extCharListEnc: Record<string, string>
        readonly charListDec: Record<number, string>
        readonly extCharListDec: Record<string, string>
      }
    }

    export const ESME_ROK: number
    export const ESME_RINVMSGLEN: number
    export const ESME_RSYSERR: number
    export const ESME_RINVSRCADR: number
    export const ESME_RINVDSTADR: number
    export const ESME_RBINDFAIL: number
    export const ESME_RINVPASWD: number
    export const ESME_RINVSYSID: number
    export const ESME_RMSGQFUL: number
    export const ESME_RTHROTTLED: number
    export const ESME_RX_T_APPN: number
    export const ESME_RX_P_APPN: number
    export const ESME_RX_R_APPN: number
    export const ESME_RSUBMITFAIL: number
    export const ESME_RINVBNDSTS: number
    export const ESME_RUNKNOWNERR: number
    export const errors: Record<string, number>
  }
  export = smpp
}

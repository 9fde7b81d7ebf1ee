/**
 * Wires the read and sender-ID endpoints (`Reads`, `SenderIdService`) to core's use cases.
 */
import { Effect, Layer } from "effect"
import { Reads } from "./handlers/Reads.js"
import { SenderIdService } from "./handlers/SenderIdService.js"

// TODO(http): core's read use cases (balance, list/read messages, profile) and sender-ID use cases
// (list, requirements, request) are not in @tuma/core yet; until they land these answer 500.
const pending = (what: string) => Effect.dieMessage(`${what} is not available yet (waiting for @tuma/core)`)

export const layer = Layer.mergeAll(
  Layer.succeed(Reads, {
    balance: () => pending("balance"),
    listMessages: () => pending("list messages"),
    getMessage: () => pending("read message"),
    profile: () => pending("profile")
  }),
  Layer.succeed(SenderIdService, {
    list: () => pending("list sender IDs"),
    requirements: () => pending("sender-ID requirements"),
    request: () => pending("request a sender ID")
  })
)

/**
 * Readable names of the records the audit log and the console's lists point at by id: a target
 * `account:<uid>` is the account's name, `provider:<uid>` the carrier's, `operator:<uid>` the
 * operator's e-mail, `api_key:<uid>` the key's name, `sender_id:<uid>` the sender ID, `spam_rule:<uid>`
 * its pattern, `webhook:<uid>` the endpoint's URL, `market:<ISO2>` the country's name. A record that
 * is gone (or an id that is no UUID) has no name: the screen shows the bare target then.
 *
 * One read per distinct target, with the stores' own finders (no list scans).
 */
import { Effect, Option } from "effect"
import { AdminStore } from "../ports/AdminStore.js"
import { OperatorStore } from "../ports/OperatorStore.js"
import { OperatorUserStore } from "../ports/OperatorUserStore.js"
import { SenderIdStore } from "../ports/SenderIdStore.js"
import { WebhookStore } from "../ports/WebhookStore.js"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The stores `targetNames` reads. */
export type TargetNameStores = AdminStore | OperatorStore | OperatorUserStore | SenderIdStore | WebhookStore

/** The names of the given targets (`kind:id`), by target; targets without a readable name are left out. */
export const targetNames = (
  targets: Iterable<string | null | undefined>
): Effect.Effect<ReadonlyMap<string, string>, never, TargetNameStores> =>
  Effect.gen(function*() {
    const admin = yield* AdminStore
    const op = yield* OperatorStore
    const operators = yield* OperatorUserStore
    const senderIds = yield* SenderIdStore
    const webhooks = yield* WebhookStore
    const nameOf = (target: string): Effect.Effect<string | undefined> => {
      const at = target.indexOf(":")
      if (at < 0) return Effect.succeed(undefined)
      const kind = target.slice(0, at)
      const id = target.slice(at + 1)
      if (kind === "market") return Effect.map(op.findMarket(id.toUpperCase()), (m) => Option.getOrUndefined(m)?.name)
      if (!UUID.test(id)) return Effect.succeed(undefined)
      switch (kind) {
        case "account":
          return Effect.map(op.findAccount(id), (a) => Option.getOrUndefined(a)?.name)
        case "provider":
          return Effect.map(admin.findProvider(id), (p) => Option.getOrUndefined(p)?.name)
        case "api_key":
          return Effect.map(admin.findApiKey(id), (k) => Option.getOrUndefined(k)?.name)
        case "sender_id":
          return Effect.map(senderIds.find(id), (s) => Option.getOrUndefined(s)?.display_name)
        case "spam_rule":
          return Effect.map(admin.findSpamRule(id), (r) => Option.getOrUndefined(r)?.pattern)
        case "operator":
          return Effect.map(operators.byId(id), (o) => o?.email)
        case "webhook":
          return Effect.map(webhooks.getEndpoint(id), (w) => w?.url)
        default:
          return Effect.succeed(undefined)
      }
    }
    const distinct = [...new Set([...targets].filter((t): t is string => typeof t === "string" && t !== ""))]
    const named = yield* Effect.forEach(
      distinct,
      (t) => Effect.map(nameOf(t), (name) => [t, name] as const),
      { concurrency: 4 }
    )
    return new Map(named.filter((e): e is readonly [string, string] => e[1] !== undefined))
  })

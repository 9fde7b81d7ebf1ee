/**
 * What the `Admin` modules share: the stores and the clock, id and account look-ups that answer 404 (`ResourceNotFound`) or 422 (`ValidationFailed`) the same way everywhere.
 */
import type { ValidationFailed } from "@tuma/domain"
import { normalizeRecipient, ResourceNotFound, validationFailed } from "@tuma/domain"
import { Clock, Effect, Option } from "effect"
import { makeAudit } from "../audit/Audit.js"
import { AdminStore } from "../ports/AdminStore.js"
import { AuditStore } from "../ports/AuditStore.js"
import { Ids } from "../ports/Ids.js"
import { OperatorStore } from "../ports/OperatorStore.js"
import { ReadStore } from "../ports/ReadStore.js"
import { SenderIdStore } from "../ports/SenderIdStore.js"
import type { MarketRow } from "../ports/SendStore.js"
import { routeView, walletView } from "./viewsOf.js"

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export const invalid = (field: string, message: string) => validationFailed({ [field]: [message] })
export const notFound = (resource: string, id: string) =>
  new ResourceNotFound({ message: `The ${resource.replace(/_/g, " ")} ${id} was not found.`, resource, id })

export const nonNegativeInt = (n: unknown): n is number => typeof n === "number" && Number.isSafeInteger(n) && n >= 0
export const clampLimit = (n: number | undefined, fallback: number, max: number) =>
  n === undefined || !Number.isFinite(n) ? fallback : Math.min(max, Math.max(1, Math.floor(n)))

/**
 * A look-up by id that answers 404 for `resource` when nothing is found, an id that is not a UUID
 * included (it finds nothing without asking the store).
 */
const byUuid =
  <A>(resource: string, find: (id: string) => Effect.Effect<Option.Option<A>>) =>
  (id: string): Effect.Effect<A, ResourceNotFound> =>
    (UUID.test(id) ? find(id) : Effect.succeedNone).pipe(
      Effect.flatMap(Option.match({ onNone: () => Effect.fail(notFound(resource, id)), onSome: Effect.succeed }))
    )

/** The stores, the clock and the look-ups every `Admin` module shares (404/422 answers included). */
export const makeAdminContext = Effect.gen(function*() {
  const admin = yield* AdminStore
  const op = yield* OperatorStore
  const senderIds = yield* SenderIdStore
  const reads = yield* ReadStore
  const ids = yield* Ids
  const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))
  const audit = makeAudit(yield* AuditStore)

  // --- look-ups --------------------------------------------------------------------------

  const account = byUuid("account", op.findAccount)

  /** A market by ISO2; unknown → 422 on `field`. */
  const market = (iso2: string, field = "country"): Effect.Effect<MarketRow, ValidationFailed> =>
    (typeof iso2 === "string" && /^[A-Za-z]{2}$/.test(iso2)
      ? op.findMarket(iso2.toUpperCase())
      : Effect.succeed(Option.none())).pipe(
        Effect.flatMap(Option.match({
          onNone: () => Effect.fail(invalid(field, `The selected ${field} is invalid: unknown country ${iso2}.`)),
          onSome: Effect.succeed
        }))
      )

  const apiKeyRow = byUuid("api_key", admin.findApiKey)
  const senderIdRow = byUuid("sender_id", senderIds.find)
  const providerRow = byUuid("provider", admin.findProvider)

  const walletsOf = (accountId: string) => Effect.map(reads.wallets(accountId), (rows) => rows.map(walletView))

  const routesOf = (accountId: string) => Effect.map(reads.verifiedRoutes(accountId), (rows) => rows.map(routeView))

  function e164(raw: string): Effect.Effect<string, ValidationFailed> {
    const r = normalizeRecipient(typeof raw === "string" ? raw : "")
    return r._tag === "Left"
      ? Effect.fail(invalid("recipient", "The recipient field must be a valid phone number in E.164 format."))
      : Effect.succeed(r.right.e164)
  }

  return {
    admin,
    op,
    senderIds,
    reads,
    ids,
    now,
    audit,
    audited: audit.audited,
    account,
    market,
    apiKeyRow,
    senderIdRow,
    providerRow,
    walletsOf,
    routesOf,
    e164
  }
})

/** What `makeAdminContext` builds. */
export type AdminContext = Effect.Effect.Success<typeof makeAdminContext>

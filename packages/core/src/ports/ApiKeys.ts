/**
 * The `ApiKeys` port: authenticating a request by its API key (spec §5, decisions §1–2).
 *
 * Only the SHA-256 hash of a key is stored (`api_keys.key_hash`, lowercase hex of the UTF-8 key);
 * `hashApiKey` is the one definition of that hash, used by whoever issues keys and by the lookup.
 *
 * `findByHash` answers the key's record whatever its state (revoked, expired, …): the caller
 * decides and answers 401. The SQL adapter reads `api_keys` joined with `accounts`.
 *
 * (Added by the HTTP engineer as the port the auth middleware needs; the adapter belongs to the
 * store.)
 */
import { sha256Hex } from "@tuma/domain/crypto"
import type { Effect, Option } from "effect"
import { Context } from "effect"

/**
 * An API key as authentication needs it (whatever its state): account, mode, scopes, IP allow-list,
 * expiry, revocation.
 */
export interface ApiKeyRecord {
  readonly id: string
  readonly accountId: string
  readonly mode: "live" | "test"
  readonly scopes: ReadonlyArray<string>
  /** IPs or CIDRs; empty = any address. */
  readonly allowedIps: ReadonlyArray<string>
  readonly expiresAt: Date | null
  readonly revokedAt: Date | null
  /** Whether the owning account is active. */
  readonly accountActive: boolean
}

/** Lowercase hex SHA-256 of the key: what `api_keys.key_hash` stores. */
export const hashApiKey = (key: string): string => sha256Hex(key)

/** Looks an API key up by its hash (`hashApiKey`); none when no key has that hash. */
export class ApiKeys extends Context.Tag("@tuma/core/ApiKeys")<ApiKeys, {
  readonly findByHash: (keyHash: string) => Effect.Effect<Option.Option<ApiKeyRecord>>
}>() {}

/**
 * In-memory adapter of the `SendStore` port, over the shared `MemoryDatabase`.
 *
 * `snapshot` reads everything in one critical section. `accept` is one critical section too, in the
 * order of the SQL transaction (`SqlSendStore`): claim the idempotency key (a committed, unexpired
 * record → `KeyTaken`), then the campaign, the messages and their dispatch-queue rows, then the
 * conditional debits (`balance >= units`, else `InsufficientFunds`) with their ledger rows. Every
 * check runs before the first write, so an outcome other than `Accepted` — or a defect — leaves
 * nothing behind, the key included. A write the schema would refuse (a duplicate message id, a
 * missing account) is a defect `AcceptanceRolledBack` (nothing stored), as the server's refusal is
 * for the SQL adapter. There is no group commit: each accept is already atomic and immediate.
 */
import type { Option } from "effect"
import { Effect, Layer, Option as O } from "effect"
import type { AcceptPlan, IdempotencyRecord, SendSnapshot, SnapshotRequest, WalletDebit } from "../ports/SendStore.js"
import { AcceptanceRolledBack, AcceptOutcome, SendStore } from "../ports/SendStore.js"
import { jsonCopy, key, uuid, uuidOrNull, violation } from "./internal.js"
import type { IdempotencyRecordRow, LedgerRecord, Tables } from "./MemoryDatabase.js"
import { MemoryConstraintViolation, MemoryDatabase } from "./MemoryDatabase.js"
import { messageRecord } from "./messageStates.js"

const recordOf = (row: IdempotencyRecordRow): IdempotencyRecord => ({
  key: row.key,
  endpoint: row.endpoint,
  fingerprint: row.fingerprint,
  response: jsonCopy(row.response),
  created_at: row.created_at,
  expires_at: row.expires_at
})

const snapshotOf = (t: Tables, r: SnapshotRequest): SendSnapshot => {
  const accountId = uuid(r.accountId)
  const account = t.accounts.get(accountId)
  const countries = new Set(r.countries)
  const recipients = new Set(r.recipients)
  const markets = [...t.markets.values()].filter((m) => countries.has(m.iso2))
  const wanted = new Set(markets.map((m) => m.id))
  const capacity = new Map<string, { routes: number; credit: number }>()
  for (const route of t.providerRoutes.values()) {
    if (!route.enabled || !wanted.has(route.market_id) || t.providers.get(route.provider_id)?.enabled !== true) continue
    const c = capacity.get(route.market_id) ?? { routes: 0, credit: 0 }
    c.routes += 1
    c.credit += t.providerCredits.get(key(route.provider_id, route.market_id))?.balance ?? 0
    capacity.set(route.market_id, c)
  }
  return {
    account: account === undefined ? undefined : { id: account.id, active: account.active },
    senderIds: [...t.senderIds.values()]
      .filter((s) => s.account_id === accountId && s.name === r.senderName)
      .map((s) => ({
        id: s.id,
        market_id: s.market_id,
        name: s.name,
        display_name: s.display_name,
        status: s.status,
        is_global: s.is_global
      })),
    markets: markets.map((m) => ({ id: m.id, iso2: m.iso2, calling_code: m.calling_code, name: m.name, open: m.open })),
    verifiedMarketIds: [...t.verifiedRoutes.values()].filter((v) => v.account_id === accountId).map((v) => v.market_id),
    wallets: [...t.wallets.values()]
      .filter((w) => w.account_id === accountId)
      .map((w) => ({ id: w.id, market_id: w.market_id, balance: w.balance, enabled: w.enabled })),
    providerCapacity: [...capacity].map(([market_id, c]) => ({ market_id, routes: c.routes, credit: c.credit })),
    optedOut: [...t.optOuts.values()]
      .filter((o) => o.account_id === accountId && recipients.has(o.recipient))
      .map((o) => o.recipient),
    spamRules: [...t.spamRules.values()]
      .filter((x) => x.enabled && (x.account_id === null || x.account_id === accountId))
      .map((x) => ({ id: x.id, kind: x.kind, pattern: x.pattern, description: x.description })),
    spamBuiltinOff: [...t.spamBuiltinSwitches.values()]
      .filter((b) => b.kind === "blocked_phrase" && !b.enabled)
      .map((b) => b.pattern)
  }
}

/** The debits of an accepted plan (checked before): each wallet charged, a `debit` ledger row each. */
const writeDebits = (
  t: Tables,
  debits: ReadonlyArray<WalletDebit>,
  now: Date,
  messageId: string | null,
  campaignId: string | null
) => {
  for (const d of debits) {
    const wallet = t.wallets.get(d.wallet_id.toLowerCase())!
    wallet.balance -= d.units
    wallet.updated_at = now
    const entry: LedgerRecord = {
      id: ++t.ledgerSequence,
      wallet_id: wallet.id,
      account_id: wallet.account_id,
      kind: "debit",
      units: -d.units,
      balance_after: wallet.balance,
      amount: null,
      currency: null,
      message_id: messageId,
      campaign_id: campaignId,
      reference: null,
      reason: null,
      corrects_id: null,
      created_at: now
    }
    t.walletLedger.push(entry)
  }
}

/** The whole acceptance, checks first, writes after (see the module comment). */
const acceptIn = (t: Tables, plan: AcceptPlan): AcceptOutcome => {
  const accountId = uuid(plan.accountId)
  const { common, items } = plan.messages

  // 1. the idempotency key: taken while a record of (account, key) has not expired
  const idem = plan.idempotency
  const idemKey = idem === undefined ? undefined : key(accountId, idem.key)
  if (idemKey !== undefined) {
    const held = t.idempotencyRecords.get(idemKey)
    if (held !== undefined && held.expires_at.getTime() > plan.now.getTime()) {
      return AcceptOutcome.KeyTaken({ record: recordOf(held) })
    }
    if (!t.accounts.has(accountId)) violation("idempotency_records", `account ${accountId} does not exist`)
  }

  // 2. the campaign row
  const c = plan.campaign
  const campaignId = c === undefined ? undefined : uuid(c.id)
  if (c !== undefined && campaignId !== undefined) {
    if (t.campaigns.has(campaignId)) violation("campaigns", `duplicate key: campaign ${campaignId} exists`)
    if (!t.accounts.has(uuid(c.account_id))) violation("campaigns", `account ${c.account_id} does not exist`)
    const keyId = uuidOrNull(c.api_key_id)
    if (keyId !== null && !t.apiKeys.has(keyId)) violation("campaigns", `api key ${keyId} does not exist`)
  }

  // 3. the messages (and, for queued ones, their dispatch-queue rows)
  const messageAccount = uuid(common.account_id)
  const messageCampaign = uuidOrNull(common.campaign_id)
  if (items.length > 0) {
    if (!t.accounts.has(messageAccount)) violation("messages", `account ${messageAccount} does not exist`)
    if (messageCampaign !== null && messageCampaign !== campaignId && !t.campaigns.has(messageCampaign)) {
      violation("messages", `campaign ${messageCampaign} does not exist`)
    }
  }
  const apiKeyId = uuidOrNull(common.api_key_id)
  const messageIds = items.map((m) => uuid(m.id))
  const marketIds = items.map((m) => uuid(m.market_id))
  const fresh = new Set<string>()
  for (const id of messageIds) {
    if (t.messages.has(id) || fresh.has(id)) violation("messages", `duplicate key: message ${id} exists`)
    fresh.add(id)
  }
  for (const m of items) {
    if (m.parts < 1 || m.units < 0) violation("messages", "parts must be ≥ 1 and units ≥ 0")
  }

  // 4. the conditional debits: a wallet that cannot cover its debit refuses the whole plan
  const debits = plan.debits.filter((d) => d.units > 0)
  const after = new Map<string, number>()
  const short: Array<{ market_id: string; units_required: number; wallet: string }> = []
  for (const d of debits) {
    const walletId = uuid(d.wallet_id)
    const wallet = t.wallets.get(walletId)
    const available = after.get(walletId) ?? wallet?.balance ?? 0
    if (wallet === undefined || available < d.units) {
      short.push({ market_id: d.market_id, units_required: d.units, wallet: walletId })
    } else after.set(walletId, available - d.units)
  }
  if (short.length > 0) {
    return AcceptOutcome.InsufficientFunds({
      shortfall: short.map((s) => ({
        market_id: s.market_id,
        units_required: s.units_required,
        units_available: t.wallets.get(s.wallet)?.balance ?? 0
      }))
    })
  }

  // JSON copies can throw too (a value JSON cannot hold): before the first write as well
  const response = idem === undefined ? null : jsonCopy(idem.response)
  const failures = c === undefined ? null : jsonCopy(c.failures)

  // every check passed: write it all
  if (idem !== undefined && idemKey !== undefined) {
    t.idempotencyRecords.set(idemKey, {
      account_id: accountId,
      key: idem.key,
      endpoint: idem.endpoint,
      fingerprint: idem.fingerprint,
      response,
      created_at: plan.now,
      expires_at: idem.expires_at
    })
  }
  if (c !== undefined && campaignId !== undefined) {
    t.campaigns.set(campaignId, {
      id: campaignId,
      account_id: uuid(c.account_id),
      api_key_id: uuidOrNull(c.api_key_id),
      api_version: c.api_version,
      name: c.name,
      sender_id: c.sender_id,
      status: c.status,
      recipient_count: c.recipient_count,
      queued_count: c.queued_count,
      failed_count: c.failed_count,
      units: c.units,
      failures,
      scheduled_at: c.scheduled_at,
      created_at: c.created_at,
      updated_at: c.created_at
    })
  }
  items.forEach((m, i) => {
    const row = messageRecord({
      id: messageIds[i],
      account_id: messageAccount,
      api_key_id: apiKeyId,
      campaign_id: messageCampaign,
      market_id: marketIds[i],
      country: m.country,
      recipient: m.recipient,
      sender_id: common.sender_id,
      text: m.text,
      encoding: m.encoding,
      parts: m.parts,
      units: m.units,
      channel: common.channel,
      status: common.status,
      idempotency_key: common.idempotency_key,
      created_at: common.created_at,
      scheduled_at: common.scheduled_at,
      queued_at: common.queued_at,
      updated_at: common.created_at
    })
    t.messages.set(row.id, row)
    if (row.status === "queued") {
      t.dispatchQueue.set(row.id, {
        message_id: row.id,
        account_id: row.account_id,
        available_at: plan.now,
        attempts: 0,
        lease_owner: null,
        lease_until: null,
        last_error: null,
        created_at: plan.now
      })
      t.dispatchVersion++
    }
  })
  const single = plan.campaign === undefined && items.length === 1 ? messageIds[0] : null
  writeDebits(t, debits, plan.now, single, campaignId ?? null)
  return AcceptOutcome.Accepted()
}

/** The memory `SendStore` over the context's `MemoryDatabase`. */
export const make = Effect.map(MemoryDatabase, (db) =>
  SendStore.of({
    snapshot: (request) => db.transact((t) => snapshotOf(t, request)),
    findIdempotency: (accountId, idempotencyKey, now) =>
      db.transact((t): Option.Option<IdempotencyRecord> => {
        const row = t.idempotencyRecords.get(key(uuid(accountId), idempotencyKey))
        return row !== undefined && row.expires_at.getTime() > now.getTime() ? O.some(recordOf(row)) : O.none()
      }),
    accept: (plan) =>
      db.transact((t) => acceptIn(t, plan)).pipe(
        // a refused write: nothing of the plan is stored (checks run before the first write)
        Effect.catchAllDefect((defect) =>
          Effect.die(
            defect instanceof MemoryConstraintViolation ? new AcceptanceRolledBack({ cause: defect }) : defect
          )
        )
      )
  }))

/** `SendStore` in memory (needs the shared `MemoryDatabase`). */
export const layerMemory: Layer.Layer<SendStore, never, MemoryDatabase> = Layer.effect(SendStore, make)

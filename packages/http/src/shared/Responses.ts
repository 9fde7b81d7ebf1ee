/**
 * Response bodies of spec §2, field for field, inside the envelope of §2.1.
 * Where the spec says "not shown" the schema is open (`Schema.Unknown` entries).
 */
import { MessageEntry as CoreMessageEntry, SentMessage } from "@tuma/core/MessageEntry"
import { CampaignFailure, CampaignV1, CampaignV2 } from "@tuma/core/send/model"
import { Encoding } from "@tuma/domain/encoding"
import { Schema } from "effect"
import { sandboxMode, successFields } from "./Envelope.js"

const Timestamp = Schema.String.annotations({ description: "ISO 8601 timestamp" })
const NullableTimestamp = Schema.NullOr(Timestamp)

/** The success envelope of a public-API answer around `fields` (`data`, …): `mode: "sandbox"` on a test key's. */
const answer = <Fields extends Schema.Struct.Fields>(fields: Fields, identifier: string) =>
  Schema.Struct({ ...successFields, ...sandboxMode, ...fields }).annotations({ identifier })

/** The 202 body of an accepted send (decisions §26): `idempotent_replay: true` when it is an earlier send's. */
const accepted = <S extends Schema.Schema.Any>(data: S, identifier: string) =>
  answer({ data, idempotent_replay: Schema.optional(Schema.Literal(true)) }, identifier)

/** §2.9 */
export const EncodingInfo = Encoding.annotations({ identifier: "Encoding" })

/** §2.2 */
export const MessageEntry = CoreMessageEntry.annotations({ identifier: "Message" })

/** decisions §26: the single-send 202 body. */
export const SendSingleResponse = accepted(SentMessage.annotations({ identifier: "SentMessage" }), "SendSingleResponse")

/** §2.3 */
export const PageMeta = Schema.Struct({
  current_page: Schema.Number,
  per_page: Schema.Number,
  total: Schema.Number,
  last_page: Schema.Number
}).annotations({ identifier: "PageMeta" })

export const ListMessagesResponse = answer({ data: Schema.Array(MessageEntry), meta: PageMeta }, "ListMessagesResponse")

/** §2.2 last line: a sandbox read is `uid`, `status: delivered`, `delivered_at`. */
export const SandboxMessage = Schema.Struct({
  uid: Schema.String,
  status: Schema.Literal("delivered"),
  delivered_at: Timestamp
}).annotations({ identifier: "SandboxMessage" })

/** Live and sandbox answers are told apart by `mode` (a union of whole bodies, so encoding never
 * mistakes a live message for the sandbox shape). */
export const GetMessageResponse = Schema.Union(
  Schema.Struct({ ...successFields, data: MessageEntry }).annotations({ identifier: "GetMessageResponse" }),
  Schema.Struct({ ...successFields, mode: Schema.Literal("sandbox"), data: SandboxMessage }).annotations({
    identifier: "GetSandboxMessageResponse"
  })
)

/** decisions §15 (`CampaignFailure`) and §2.4 v1, v2: core's schemas, which decode idempotent replays. */
export { CampaignFailure, CampaignV1, CampaignV2 }

export const BulkV1Response = accepted(CampaignV1, "BulkV1Response")

export const BulkV2Response = accepted(CampaignV2, "BulkV2Response")

/** §2.5 */
export const LiveBalance = Schema.Struct({
  balance: Schema.String,
  currency: Schema.Literal("SMS"),
  countries: Schema.Array(Schema.Struct({
    wallet_uid: Schema.String,
    country: Schema.String,
    calling_code: Schema.NullOr(Schema.String),
    balance: Schema.String
  }))
}).annotations({ identifier: "Balance" })

export const SandboxBalance = Schema.Struct({
  wallet_uid: Schema.Literal("sandbox_wallet"),
  balance: Schema.Literal(100000),
  currency: Schema.Literal("SMS")
}).annotations({ identifier: "SandboxBalance" })

export const BalanceResponse = answer({ data: Schema.Union(LiveBalance, SandboxBalance) }, "BalanceResponse")

/** §2.6 */
export const SenderIdRecord = Schema.Struct({
  uid: Schema.String,
  sender_id: Schema.String,
  country_uid: Schema.String,
  country_code: Schema.String,
  country_name: Schema.String,
  status: Schema.Literal("pending", "approved", "rejected", "suspended"),
  is_default: Schema.Boolean,
  is_global: Schema.Boolean,
  sample_message: Schema.String,
  is_usable: Schema.Boolean,
  submitted_document_uids: Schema.Array(Schema.String),
  requested_at: Timestamp,
  updated_at: Timestamp,
  rejection_reason: Schema.optional(Schema.NullOr(Schema.String))
}).annotations({ identifier: "SenderId" })

export const ListSenderIdsResponse = answer({ data: Schema.Array(SenderIdRecord) }, "ListSenderIdsResponse")

export const SenderIdCreatedResponse = answer(
  { message: Schema.String, data: SenderIdRecord },
  "SenderIdCreatedResponse"
)

/** §2.7 */
export const SenderIdRequirements = Schema.Struct({
  eligibility: Schema.Struct({
    can_request: Schema.Boolean,
    purchased_units: Schema.Number,
    required_units: Schema.Number,
    currency: Schema.String,
    minimum_purchase_amount: Schema.String,
    price_per_unit: Schema.String,
    reason: Schema.String
  }),
  countries: Schema.Array(Schema.Unknown),
  documents: Schema.Array(Schema.Struct({
    uid: Schema.String,
    name: Schema.String,
    is_required: Schema.Boolean,
    accepted_formats: Schema.Array(Schema.String),
    max_size_kb: Schema.Number
  })),
  documents_required: Schema.Boolean,
  purposes: Schema.Array(Schema.String),
  sender_id_rules: Schema.Struct({
    min_length: Schema.Number,
    max_length: Schema.Number,
    pattern: Schema.String,
    description: Schema.String,
    reserved_names: Schema.Array(Schema.String)
  }),
  sample_message_rules: Schema.Struct({
    min_length: Schema.Number,
    max_length: Schema.Number,
    description: Schema.String
  })
}).annotations({ identifier: "SenderIdRequirements" })

export const RequirementsResponse = answer({ data: SenderIdRequirements }, "RequirementsResponse")

/** §2.8 */
export const Profile = Schema.Struct({
  uid: Schema.String,
  name: Schema.String,
  email: Schema.String,
  phone: Schema.NullOr(Schema.String),
  phone_verified_at: NullableTimestamp,
  country: Schema.NullOr(Schema.Struct({
    uid: Schema.String,
    iso2: Schema.String,
    calling_code: Schema.String,
    name: Schema.String
  })),
  balances: Schema.Array(Schema.Struct({
    wallet_uid: Schema.String,
    country_uid: Schema.String,
    country: Schema.String,
    calling_code: Schema.NullOr(Schema.String),
    balance: Schema.Number,
    currency: Schema.Literal("SMS")
  })),
  routes: Schema.Array(Schema.Unknown)
}).annotations({ identifier: "Profile" })

export const ProfileResponse = answer({ data: Profile }, "ProfileResponse")

export const HealthResponse = Schema.Struct({
  ...successFields,
  data: Schema.Struct({
    status: Schema.String,
    checks: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.String }))
  })
}).annotations({ identifier: "HealthResponse" })

/**
 * Contract suite of the customer's sender-ID use cases (spec §4.7–4.9, §2.6–2.7, decisions §17) on
 * PGlite, on PostgreSQL when TUMA_TEST_DATABASE_URL is set, and on core's memory adapters:
 * requirements and eligibility, every error code of a request, documents by magic bytes and size
 * ceiling, concurrency.
 */
import { expect } from "@effect/vitest"
import { Admin } from "@tuma/core"
import type { RequestSenderIdInput } from "@tuma/core"
import { fromJsonRequest, multiplyDecimal, SenderIdConfig, SenderIds } from "@tuma/core"
import { RESERVED_SENDER_IDS } from "@tuma/domain"
import { Effect, Either, TestClock } from "effect"
import { forEachDriver } from "./harness.js"
import { JPEG, newAccount, operatorStack, PDF, PNG, SAMPLE, TEXT, unique } from "./operatorFixtures.js"
import { Probe } from "./probe.js"

const TZ = "0b6f3c1e-5a2d-4c7e-9f10-2d5e8a7b1c01"
const KE = "0b6f3c1e-5a2d-4c7e-9f10-2d5e8a7b1c02"

/** A name no other test uses (3–11 letters). */
const name = () => `S${unique("").slice(-9).toUpperCase()}`

const request = (overrides: Partial<RequestSenderIdInput> = {}): RequestSenderIdInput => ({
  sender_id: name(),
  sample_message: SAMPLE,
  purpose: "Transactional",
  ...overrides
})

/** An account allowed to request for TZ (1,000 purchased units, verified route). */
const eligible = () => newAccount({ purchases: { TZ: 1000 }, routes: ["TZ"] })

const errorsOf = <E extends { readonly _tag: string }>(e: E) =>
  (e as unknown as { errors?: Record<string, ReadonlyArray<string>> }).errors ?? {}

forEachDriver(operatorStack, (it) => {
  it.effect("requirements: eligibility from purchased units, countries from verified open routes, rules", () =>
    Effect.gen(function*() {
      const senderIds = yield* SenderIds
      const admin = yield* Admin
      const account = yield* newAccount({ purchases: { TZ: 400 }, routes: ["TZ", "KE"] })
      const before = yield* senderIds.requirements(account.uid)
      expect(before.eligibility).toEqual({
        can_request: false,
        purchased_units: 400,
        required_units: 1000,
        currency: "TZS",
        minimum_purchase_amount: "20000.00",
        price_per_unit: "20.00",
        reason: expect.stringContaining("600 more")
      })
      // KE has a verified route but is closed: not listed
      expect(before.countries).toEqual([{ uid: TZ, iso2: "TZ", name: "Tanzania", calling_code: "255" }])
      expect(before.purposes).toContain("OTP / Verification")
      expect(before.sender_id_rules).toMatchObject({ min_length: 3, max_length: 11 })
      expect(before.sender_id_rules.reserved_names).toEqual(RESERVED_SENDER_IDS)
      expect(before.sample_message_rules).toMatchObject({ min_length: 50, max_length: 500 })

      // purchases count, whatever was spent since; only purchases count
      yield* admin.purchaseCredits({ account_uid: account.uid, country: "KE", units: 600 })
      yield* Effect.flatMap(Probe, (probe) => probe.emptyWallets(account.uid))
      const after = yield* senderIds.requirements(account.uid)
      expect(after.eligibility.can_request).toBe(true)
      expect(after.eligibility.purchased_units).toBe(1000)

      // opening KE lists it
      yield* admin.setMarketOpen("KE", true)
      const opened = yield* senderIds.requirements(account.uid)
      yield* admin.setMarketOpen("KE", false)
      expect(opened.countries.map((c) => c.iso2)).toEqual(["KE", "TZ"])
    }))

  it.effect("requirements: required units and prices are configurable", () =>
    Effect.gen(function*() {
      const senderIds = yield* SenderIds
      const account = yield* newAccount({ purchases: { TZ: 60 } })
      const r = yield* senderIds.requirements(account.uid).pipe(
        Effect.provideService(SenderIdConfig, {
          requiredUnits: 50,
          currency: "KES",
          pricePerUnit: "0.85",
          defaultMarket: "TZ",
          defaultMaxSizeKb: 2048
        })
      )
      expect(r.eligibility).toMatchObject({
        can_request: true,
        required_units: 50,
        currency: "KES",
        price_per_unit: "0.85",
        minimum_purchase_amount: "42.50"
      })
      expect(multiplyDecimal(1000, "20.00")).toBe("20000.00")
      expect(multiplyDecimal(3, "0.05")).toBe("0.15")
      expect(multiplyDecimal(7, "12")).toBe("84")
    }))

  it.effect("request: a pending record (§2.6), uppercase, for the default market, listed with every status", () =>
    Effect.gen(function*() {
      const senderIds = yield* SenderIds
      const admin = yield* Admin
      const account = yield* eligible()
      const raw = `  Acme   ${name().slice(1, 7)} `
      const created = yield* senderIds.request(account.uid, request({ sender_id: raw }))
      const expectedName = raw.trim().replace(/\s+/g, " ").toUpperCase()
      expect(created.message).toContain("submitted")
      expect(created.data).toMatchObject({
        sender_id: expectedName,
        country_uid: TZ,
        country_code: "255",
        country_name: "Tanzania",
        status: "pending",
        is_default: false,
        is_global: false,
        sample_message: SAMPLE,
        is_usable: false,
        submitted_document_uids: [],
        rejection_reason: null
      })
      yield* TestClock.adjust("1 second") // newest request first
      const granted = yield* admin.grantSenderId({ account_uid: account.uid, sender_id: "Tuma", country: "TZ" })
      const listed = yield* senderIds.list(account.uid)
      expect(listed.map((r) => [r.sender_id, r.status, r.is_usable])).toEqual([
        ["TUMA", "approved", true],
        [expectedName, "pending", false]
      ])
      expect(listed[0].uid).toBe(granted.uid)
      // the case chosen is kept for the handset
      const row = yield* Effect.flatMap(Probe, (probe) => probe.senderIdRow(created.data.uid))
      expect(row.display_name).toBe(raw.trim().replace(/\s+/g, " "))
    }))

  it.effect("request: field errors all at once (422), before any other check", () =>
    Effect.gen(function*() {
      const senderIds = yield* SenderIds
      const account = yield* newAccount() // not even eligible: validation comes first
      const e = yield* Effect.flip(senderIds.request(account.uid, {
        sender_id: "otp",
        sample_message: "too short",
        purpose: "Spam",
        country_uid: "nope",
        protection_requested: true
      }))
      expect(e._tag).toBe("ValidationFailed")
      expect(Object.keys(errorsOf(e)).sort()).toEqual([
        "country_uid",
        "protection_documents_base64",
        "purpose",
        "sample_message",
        "sender_id"
      ])
      for (const bad of ["ab", "TWELVE CHARS", "ACME-SHOP", "Café", "O T P", ...RESERVED_SENDER_IDS.slice(0, 3)]) {
        const r = yield* Effect.flip(senderIds.request(account.uid, request({ sender_id: bad })))
        expect(r._tag, bad).toBe("ValidationFailed")
        expect(Object.keys(errorsOf(r)), bad).toEqual(["sender_id"])
      }
      const long = yield* Effect.flip(senderIds.request(account.uid, request({ sample_message: "x".repeat(501) })))
      expect(Object.keys(errorsOf(long))).toEqual(["sample_message"])
    }))

  it.effect("request: sender_id_not_eligible without enough purchased units", () =>
    Effect.gen(function*() {
      const senderIds = yield* SenderIds
      const account = yield* newAccount({ purchases: { TZ: 999 }, routes: ["TZ"] })
      const e = yield* Effect.flip(senderIds.request(account.uid, request()))
      expect(e._tag).toBe("SenderIdNotEligible")
      expect(e.error_code).toBe("sender_id_not_eligible")
    }))

  it.effect("request: country_not_available for an unknown or closed country; omitted → default market", () =>
    Effect.gen(function*() {
      const senderIds = yield* SenderIds
      const account = yield* newAccount({ purchases: { TZ: 1000 }, routes: ["TZ", "KE"] })
      const closed = yield* Effect.flip(senderIds.request(account.uid, request({ country_uid: KE })))
      expect(closed._tag).toBe("SenderIdCountryNotAvailable")
      expect(closed.error_code).toBe("country_not_available")
      const unknown = yield* Effect.flip(
        senderIds.request(account.uid, request({ country_uid: "11111111-2222-4333-8444-555555555555" }))
      )
      expect(unknown.error_code).toBe("country_not_available")
      // the default market itself closed
      const closedDefault = yield* Effect.flip(
        senderIds.request(account.uid, request()).pipe(
          Effect.provideService(SenderIdConfig, {
            requiredUnits: 1000,
            currency: "TZS",
            pricePerUnit: "20.00",
            defaultMarket: "RW",
            defaultMaxSizeKb: 5120
          })
        )
      )
      expect(closedDefault.error_code).toBe("country_not_available")
      const ok = yield* senderIds.request(account.uid, request({ country_uid: null }))
      expect(ok.data.country_uid).toBe(TZ)
    }))

  it.effect("request: route_not_verified without a verified route for the country", () =>
    Effect.gen(function*() {
      const senderIds = yield* SenderIds
      const account = yield* newAccount({ purchases: { TZ: 1000 } })
      const e = yield* Effect.flip(senderIds.request(account.uid, request({ country_uid: TZ })))
      expect(e._tag).toBe("SenderIdRouteNotVerified")
      expect(e.error_code).toBe("route_not_verified")
    }))

  it.effect("request: sender_id_already_requested (409) for the account's name at any status; protected names", () =>
    Effect.gen(function*() {
      const senderIds = yield* SenderIds
      const admin = yield* Admin
      const account = yield* eligible()
      const other = yield* eligible()
      const n = name()
      const first = yield* senderIds.request(account.uid, request({ sender_id: n }))
      const again = yield* Effect.flip(senderIds.request(account.uid, request({ sender_id: ` ${n.toLowerCase()} ` })))
      expect(again._tag).toBe("SenderIdAlreadyRequested")
      expect(again.error_code).toBe("sender_id_already_requested")
      // still refused once rejected (retrying never succeeds)
      yield* admin.rejectSenderId(first.data.uid, "Not a registered trade name")
      expect((yield* Effect.flip(senderIds.request(account.uid, request({ sender_id: n }))))._tag).toBe(
        "SenderIdAlreadyRequested"
      )
      // another account may ask for an unprotected name …
      expect((yield* senderIds.request(other.uid, request({ sender_id: n }))).data.status).toBe("pending")
      // … but not for one claimed with protection
      const claimed = name()
      yield* senderIds.request(
        account.uid,
        request({
          sender_id: claimed,
          protection_requested: true,
          protection_documents: [{ filename: "trademark.pdf", bytes: PDF() }]
        })
      )
      const taken = yield* Effect.flip(senderIds.request(other.uid, request({ sender_id: claimed })))
      expect(taken._tag).toBe("SenderIdAlreadyRequested")
    }))

  it.effect("request: concurrent identical requests store one record; the rest are 409", () =>
    Effect.gen(function*() {
      const senderIds = yield* SenderIds
      const account = yield* eligible()
      const n = name()
      const results = yield* Effect.all(
        Array.from({ length: 8 }, () => Effect.either(senderIds.request(account.uid, request({ sender_id: n })))),
        { concurrency: "unbounded" }
      )
      expect(results.filter(Either.isRight).length).toBe(1)
      expect(results.filter(Either.isLeft).map((r) => r.left._tag)).toEqual(
        Array(7).fill("SenderIdAlreadyRequested")
      )
      expect((yield* senderIds.list(account.uid)).filter((r) => r.sender_id === n).length).toBe(1)
    }))

  it.effect("documents: required ones present, formats by magic bytes, size ceiling from max_size_kb", () =>
    Effect.gen(function*() {
      const senderIds = yield* SenderIds
      const admin = yield* Admin
      const probe = yield* Probe
      const account = yield* eligible()
      const licence = yield* admin.createRequirement({
        name: `Business licence ${unique("")}`,
        is_required: true,
        accepted_formats: ["pdf"],
        max_size_kb: 1,
        country: "TZ"
      })
      const photo = yield* admin.createRequirement({ name: `Photo ID ${unique("")}`, accepted_formats: ["jpg", "png"] })
      try {
        const reqs = yield* senderIds.requirements(account.uid)
        expect(reqs.documents_required).toBe(true)
        expect(reqs.documents).toEqual(expect.arrayContaining([
          { uid: licence.uid, name: licence.name, is_required: true, accepted_formats: ["pdf"], max_size_kb: 1 },
          {
            uid: photo.uid,
            name: photo.name,
            is_required: false,
            accepted_formats: ["jpg", "png"],
            max_size_kb: 5120
          }
        ]))

        // missing the required one
        const missing = yield* Effect.flip(senderIds.request(account.uid, request()))
        expect(errorsOf(missing)).toEqual({ documents_base64: [`The document "${licence.name}" is required.`] })

        // text named .pdf; png named .pdf; 1 KB + 1 byte; unknown requirement
        const bad = yield* Effect.flip(senderIds.request(
          account.uid,
          request({
            documents: [
              { requirement_uid: licence.uid, filename: "licence.pdf", bytes: TEXT() },
              { requirement_uid: licence.uid, filename: "licence.pdf", bytes: PNG() },
              { requirement_uid: licence.uid, filename: "big.pdf", bytes: PDF(1025) },
              { requirement_uid: "99999999-9999-4999-8999-999999999999", filename: "x.pdf", bytes: PDF() },
              { requirement_uid: photo.uid, filename: "face.gif", bytes: JPEG() }
            ]
          })
        ))
        expect(bad._tag).toBe("ValidationFailed")
        expect(Object.keys(errorsOf(bad)).sort()).toEqual([
          "documents_base64.0.content_base64",
          "documents_base64.1.content_base64",
          "documents_base64.2.content_base64",
          "documents_base64.3.requirement_uid",
          "documents_base64.4.filename"
        ])
        expect(errorsOf(bad)["documents_base64.2.content_base64"][0]).toContain("1 kilobytes")

        // exactly 1 KB passes; a JPEG named .jpeg for a jpg/png requirement passes
        const ok = yield* senderIds.request(
          account.uid,
          request({
            documents: [
              { requirement_uid: licence.uid, filename: "licence.PDF", bytes: PDF(1024) },
              { requirement_uid: photo.uid, filename: "face.jpeg", bytes: JPEG() }
            ]
          })
        )
        expect(ok.data.submitted_document_uids.length).toBe(2)
        const stored = yield* probe.senderIdDocuments(ok.data.uid)
        expect(stored).toEqual([
          { kind: "requirement", content_type: "application/pdf", size_bytes: 1024, requirement_id: licence.uid },
          { kind: "requirement", content_type: "image/jpeg", size_bytes: 64, requirement_id: photo.uid }
        ])
        // the bytes as uploaded (bytea: a Buffer on PostgreSQL, a Uint8Array on PGlite, decoded alike)
        const contents = yield* Effect.forEach(
          ok.data.submitted_document_uids,
          (uid) =>
            Effect.map(admin.getSenderIdDocument(uid), (d) => {
              expect(d.content).toBeInstanceOf(Uint8Array)
              return [...d.content].join(",")
            })
        )
        expect(contents.sort()).toEqual([[...PDF(1024)].join(","), [...JPEG()].join(",")].sort())

        // multipart paths
        const multipart = yield* Effect.flip(senderIds.request(
          account.uid,
          request({
            source: "multipart",
            documents: [{ requirement_uid: licence.uid, filename: "licence.pdf", bytes: TEXT() }],
            protection_requested: true,
            protection_documents: [{ filename: "tm.png", bytes: PDF() }]
          })
        ))
        expect(Object.keys(errorsOf(multipart)).sort()).toEqual([`documents.${licence.uid}`, "protection_documents.0"])
      } finally {
        yield* admin.deleteRequirement(licence.uid)
        yield* admin.deleteRequirement(photo.uid)
      }
      // deleted (deactivated) requirements are no longer asked for
      const after = yield* senderIds.requirements(account.uid)
      expect(after.documents.map((d) => d.uid)).not.toContain(licence.uid)
      expect((yield* senderIds.request(account.uid, request())).data.status).toBe("pending")
    }))

  it.effect("protection: requires ≥1 protection document, checked by content; stored with the request", () =>
    Effect.gen(function*() {
      const senderIds = yield* SenderIds
      const probe = yield* Probe
      const account = yield* eligible()
      const none = yield* Effect.flip(
        senderIds.request(account.uid, request({ protection_requested: true, protection_documents: [] }))
      )
      expect(Object.keys(errorsOf(none))).toEqual(["protection_documents_base64"])
      const fake = yield* Effect.flip(senderIds.request(
        account.uid,
        request({
          protection_requested: true,
          protection_documents: [{ filename: "tm.pdf", bytes: TEXT() }]
        })
      ))
      expect(Object.keys(errorsOf(fake))).toEqual(["protection_documents_base64.0.content_base64"])
      const big = yield* Effect.flip(senderIds.request(
        account.uid,
        request({
          protection_requested: true,
          protection_documents: [{ filename: "tm.pdf", bytes: PDF(5120 * 1024 + 1) }]
        })
      ))
      expect(Object.keys(errorsOf(big))).toEqual(["protection_documents_base64.0.content_base64"])
      const ok = yield* senderIds.request(
        account.uid,
        request({
          protection_requested: true,
          protection_documents: [{ filename: "tm.png", bytes: PNG() }]
        })
      )
      const row = yield* probe.senderIdRow(ok.data.uid)
      const kinds = (yield* probe.senderIdDocuments(ok.data.uid)).map((d) => d.kind)
      expect({ protection_requested: row.protection_requested, kinds }).toEqual({
        protection_requested: true,
        kinds: ["protection"]
      })
    }))

  it.effect("sandbox: the same checks as live, then a synthetic record that is not stored", () =>
    Effect.gen(function*() {
      const senderIds = yield* SenderIds
      const account = yield* eligible()
      const notEligible = yield* newAccount()
      const sandbox = { sandbox: true }
      expect((yield* Effect.flip(senderIds.request(notEligible.uid, request(), sandbox)))._tag).toBe(
        "SenderIdNotEligible"
      )
      expect((yield* Effect.flip(senderIds.request(account.uid, request({ sender_id: "x" }), sandbox)))._tag).toBe(
        "ValidationFailed"
      )
      const n = name()
      const synthetic = yield* senderIds.request(account.uid, request({ sender_id: n }), sandbox)
      expect(synthetic.data).toMatchObject({ sender_id: n, status: "pending", country_uid: TZ, is_usable: false })
      expect(yield* senderIds.list(account.uid)).toEqual([])
      // nothing stored: the live request for the same name still succeeds
      expect((yield* senderIds.request(account.uid, request({ sender_id: n }))).data.sender_id).toBe(n)
    }))

  it.effect("fromJsonRequest decodes base64 documents (standard, URL-safe, data: URL)", () =>
    Effect.gen(function*() {
      const senderIds = yield* SenderIds
      const account = yield* eligible()
      const pdf = Buffer.from(PDF())
      const input = fromJsonRequest({
        sender_id: name(),
        sample_message: SAMPLE,
        purpose: "Marketing",
        protection_requested: true,
        protection_documents_base64: [
          { filename: "a.pdf", content_base64: pdf.toString("base64") },
          { filename: "b.pdf", content_base64: `data:application/pdf;base64,${pdf.toString("base64url")}` }
        ]
      })
      expect(input.protection_documents?.map((d) => Buffer.from(d.bytes).equals(pdf))).toEqual([true, true])
      const ok = yield* senderIds.request(account.uid, input)
      expect(ok.data.submitted_document_uids.length).toBe(2)
    }))
})

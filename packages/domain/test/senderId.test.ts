import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import {
  checkSenderIdDocuments,
  DEFAULT_DOCUMENT_MAX_SIZE_KB,
  detectDocumentFormat,
  type DocumentRequirement,
  InvalidSenderId,
  isReservedSenderId,
  normalizeSenderId,
  RESERVED_SENDER_IDS,
  sampleMessageRules,
  SENDER_ID_PURPOSES,
  senderIdRules
} from "../src/index.js"

const ok = (raw: string) => Either.getOrThrow(normalizeSenderId(raw))
const refused = (raw: string) => {
  const r = normalizeSenderId(raw)
  if (Either.isRight(r)) throw new Error(`${raw} was accepted as ${r.right}`)
  return r.left
}

describe("normalizeSenderId", () => {
  it("trims, collapses whitespace and uppercases", () => {
    expect(ok("tuma")).toBe("TUMA")
    expect(ok("  Tuma   Shop  ")).toBe("TUMA SHOP")
    expect(ok("tuma\tshop")).toBe("TUMA SHOP")
    expect(ok("Shop 24")).toBe("SHOP 24")
  })

  it("accepts 3 to 11 characters, counted after normalisation", () => {
    expect(ok("abc")).toBe("ABC")
    expect(ok("abcdefghijk")).toBe("ABCDEFGHIJK")
    expect(ok("  abcde   fghij  ")).toBe("ABCDE FGHIJ")
    expect(refused("ab").message).toBe("The sender ID must be at least 3 characters.")
    expect(refused("  a    ").message).toBe("The sender ID must be at least 3 characters.")
    expect(refused("abcdefghijkl").message).toBe("The sender ID must not be greater than 11 characters.")
  })

  it("refuses symbols and accents (checked before uppercasing: ß would become SS)", () => {
    for (const raw of ["tuma-shop", "tuma.co", "tuma_1", "café", "straße", "ﬁrm", "@home", "Shop!"]) {
      const e = refused(raw)
      expect(e).toBeInstanceOf(InvalidSenderId)
      expect(e.error_code).toBe("INVALID_SENDER_ID")
      expect(e.message).toBe("The sender ID may contain only letters A-Z, digits and single spaces between words.")
      expect(e.sender_id).toBe(raw)
    }
  })

  it("refuses every reserved name in any case, also spelled with spaces", () => {
    expect(RESERVED_SENDER_IDS).toHaveLength(21)
    for (const name of RESERVED_SENDER_IDS) {
      if (name.length < 3) continue
      expect(refused(name.toLowerCase()).message).toBe(`The sender ID ${name} is reserved and cannot be requested.`)
    }
    expect(refused(" Otp ").message).toContain("reserved")
    expect(refused("o t p").message).toContain("reserved")
    expect(isReservedSenderId("Bank")).toBe(true)
    expect(isReservedSenderId("BANK OF X")).toBe(false)
    expect(ok("Bank Of X")).toBe("BANK OF X")
  })
})

describe("requirements data (spec §2.7, §4.9)", () => {
  it("sender_id_rules and sample_message_rules carry the published limits", () => {
    expect(senderIdRules.min_length).toBe(3)
    expect(senderIdRules.max_length).toBe(11)
    expect(senderIdRules.pattern).toBe("^[A-Za-z0-9]+( [A-Za-z0-9]+)*$")
    expect(senderIdRules.reserved_names).toContain("WHATSAPP")
    expect(typeof senderIdRules.description).toBe("string")
    expect(sampleMessageRules).toMatchObject({ min_length: 50, max_length: 500 })
    expect(JSON.parse(JSON.stringify(senderIdRules)).reserved_names).toHaveLength(21)
  })

  it("lists the seven purposes", () => {
    expect(SENDER_ID_PURPOSES).toEqual([
      "Notification",
      "Transactional",
      "OTP / Verification",
      "Promotional",
      "Marketing",
      "Alerts & Reminders",
      "Other"
    ])
  })
})

const PDF = Buffer.from("%PDF-1.7\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n").toString("base64")
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).toString("base64")
const JPG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46]).toString("base64")
const EXE = Buffer.from("MZ\x90\x00\x03").toString("base64")

const LICENCE = "1b4e28ba-2fa1-11d2-883f-0016d3cca427"
const ID_CARD = "6fa459ea-ee8a-3ca4-894e-db77e160355e"
const requirements: ReadonlyArray<DocumentRequirement> = [
  { uid: LICENCE, name: "Business licence", is_required: true, accepted_formats: ["pdf"], max_size_kb: 1 },
  { uid: ID_CARD, name: "ID card", is_required: false }
]

describe("sender ID documents", () => {
  it("detects formats by content", () => {
    expect(detectDocumentFormat(Buffer.from(PDF, "base64"))).toBe("pdf")
    expect(detectDocumentFormat(Buffer.from(PNG, "base64"))).toBe("png")
    expect(detectDocumentFormat(Buffer.from(JPG, "base64"))).toBe("jpg")
    expect(detectDocumentFormat(Buffer.from(EXE, "base64"))).toBeUndefined()
    expect(detectDocumentFormat(new Uint8Array())).toBeUndefined()
  })

  it("accepts valid documents (data: URL prefix and .jpeg/.jpg alike) and decodes them", () => {
    const r = Either.getOrThrow(checkSenderIdDocuments({
      documents_base64: [
        { requirement_uid: LICENCE.toUpperCase(), filename: "licence.PDF", content_base64: PDF },
        { requirement_uid: ID_CARD, filename: "id.jpeg", content_base64: `data:image/jpeg;base64,${JPG}` }
      ],
      protection_documents_base64: [{ filename: "trademark.png", content_base64: PNG }]
    }, requirements))
    expect(r.documents.map((d) => [d.requirement_uid, d.format])).toEqual([[LICENCE, "pdf"], [ID_CARD, "jpg"]])
    expect(Buffer.from(r.documents[0]!.bytes).toString("latin1").startsWith("%PDF-")).toBe(true)
    expect(r.protection_documents[0]!.format).toBe("png")
  })

  it("answers every problem at once with field paths", () => {
    const r = checkSenderIdDocuments({
      documents_base64: [
        { requirement_uid: ID_CARD, filename: "id.pdf", content_base64: PNG },
        { requirement_uid: "00000000-0000-0000-0000-000000000000", filename: "x.pdf", content_base64: PDF },
        { requirement_uid: ID_CARD, filename: "id.exe", content_base64: EXE }
      ],
      protection_documents_base64: [{ filename: "tm.png", content_base64: PDF }]
    }, requirements)
    expect(Either.isLeft(r)).toBe(true)
    if (Either.isLeft(r)) {
      expect(r.left.error_code).toBe("VALIDATION_FAILED")
      expect(r.left.errors).toEqual({
        "documents_base64.0.content_base64": [
          "The documents_base64.0.content_base64 field content does not match its file name."
        ],
        "documents_base64.1.requirement_uid": ["The selected documents_base64.1.requirement_uid is invalid."],
        "documents_base64.2.filename": [
          "The documents_base64.2.filename field must be a file of type: pdf, jpg, jpeg, png."
        ],
        "documents_base64.2.content_base64": [
          "The documents_base64.2.content_base64 field must be a pdf, jpg, jpeg, png file."
        ],
        "documents_base64": ["The document \"Business licence\" is required."],
        "protection_documents_base64.0.content_base64": [
          "The protection_documents_base64.0.content_base64 field content does not match its file name."
        ]
      })
    }
  })

  it("enforces the requirement's formats and max_size_kb (default 5120)", () => {
    const big = Buffer.concat([Buffer.from("%PDF-"), Buffer.alloc(2000)]).toString("base64")
    const r = checkSenderIdDocuments({
      documents_base64: [{ requirement_uid: LICENCE, filename: "l.pdf", content_base64: big }]
    }, requirements)
    expect(Either.isLeft(r) && r.left.errors["documents_base64.0.content_base64"]).toEqual([
      "The documents_base64.0.content_base64 field must not be greater than 1 kilobytes."
    ])
    const png = checkSenderIdDocuments({
      documents_base64: [{ requirement_uid: LICENCE, filename: "l.png", content_base64: PNG }]
    }, requirements)
    expect(Either.isLeft(png) && png.left.errors["documents_base64.0.filename"]).toEqual([
      "The documents_base64.0.filename field must be a file of type: pdf."
    ])
    expect(DEFAULT_DOCUMENT_MAX_SIZE_KB).toBe(5120)
    const large = Buffer.concat([Buffer.from("%PDF-"), Buffer.alloc(5120 * 1024)]).toString("base64")
    const tooLarge = checkSenderIdDocuments({
      protection_documents_base64: [{ filename: "a.pdf", content_base64: large }]
    }, [])
    expect(Either.isLeft(tooLarge)).toBe(true)
  })

  it("no documents and no required requirement is fine", () => {
    expect(Either.isRight(checkSenderIdDocuments({}, [requirements[1]!]))).toBe(true)
  })
})

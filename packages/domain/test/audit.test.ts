import { describe, expect, it } from "vitest"
import { isSecretField, REDACTED, redactSecrets } from "../src/audit.js"

describe("audit log values: secrets never recorded", () => {
  it("secret fields at any depth, in objects and arrays, become ***; other values are kept as JSON", () => {
    const value = {
      name: "smsc-1",
      config: { host: "10.0.0.1", port: 2775, system_id: "tuma", password: "p", SMPP_Password: "q" },
      accounts: [{ key: "tuma_live_x", key_hash: "abc", prefix: "tuma_live_ab" }, { api_key: { uid: "k" } }],
      webhook: { secret: "whsec_1", signing_secret: "s", csrf_token: "t", credentials: ["a"], private_key: "-" },
      none: null,
      skipped: undefined,
      at: new Date("2026-01-01T00:00:00.000Z"),
      big: 12n,
      bytes: new Uint8Array(3)
    }
    expect(redactSecrets(value)).toEqual({
      name: "smsc-1",
      config: { host: "10.0.0.1", port: 2775, system_id: "tuma", password: REDACTED, SMPP_Password: REDACTED },
      accounts: [{ key: REDACTED, key_hash: "abc", prefix: "tuma_live_ab" }, { api_key: REDACTED }],
      webhook: {
        secret: REDACTED,
        signing_secret: REDACTED,
        csrf_token: REDACTED,
        credentials: REDACTED,
        private_key: REDACTED
      },
      none: null,
      at: "2026-01-01T00:00:00.000Z",
      big: "12",
      bytes: "<3 bytes>"
    })
    // a null secret stays null (nothing to hide); the input is not changed
    expect(redactSecrets({ password: null })).toEqual({ password: null })
    expect(value.config.password).toBe("p")
    expect(redactSecrets(undefined)).toBeNull()
  })

  it("which names are secrets", () => {
    for (const n of ["password", "passwd", "smpp_password", "secret", "webhook_secret", "token", "key", "api_key"]) {
      expect(isSecretField(n), n).toBe(true)
    }
    for (const n of ["key_hash", "prefix", "name", "system_id", "apiKeyId", "api_key_uid", "keys", "host"]) {
      expect(isSecretField(n), n).toBe(false)
    }
  })
})

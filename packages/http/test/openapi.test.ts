/**
 * The OpenAPI document served at /openapi.json is the contract clients are generated from: it is
 * compared byte for byte with the committed copy (test/fixtures/openapi.json), so a refactoring of
 * how endpoints are declared cannot change it unnoticed. A deliberate change of the contract
 * refreshes the fixture in the same commit (`curl -s $API/openapi.json > test/fixtures/openapi.json`).
 */
import { readFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startServer, type TestServer } from "./harness.js"

let server: TestServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())

describe("the OpenAPI document", () => {
  it("is byte-identical to the committed contract", async () => {
    const expected = readFileSync(new URL("./fixtures/openapi.json", import.meta.url), "utf8")
    const response = await fetch(`${server.url}/openapi.json`)
    expect(response.status).toBe(200)
    const served = await response.text()
    expect(served.length).toBe(expected.length)
    expect(served === expected).toBe(true)
  })
})

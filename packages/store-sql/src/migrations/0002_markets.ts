/**
 * 0002 — seed markets: Tanzania open (the default market, decisions §17), a few neighbours closed.
 * Ids are fixed so every installation shares the same `country_uid`s.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export const MARKET_IDS = {
  TZ: "0b6f3c1e-5a2d-4c7e-9f10-2d5e8a7b1c01",
  KE: "0b6f3c1e-5a2d-4c7e-9f10-2d5e8a7b1c02",
  UG: "0b6f3c1e-5a2d-4c7e-9f10-2d5e8a7b1c03",
  RW: "0b6f3c1e-5a2d-4c7e-9f10-2d5e8a7b1c04"
} as const

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql`INSERT INTO markets ${
    sql.insert([
      { id: MARKET_IDS.TZ, iso2: "TZ", calling_code: "255", name: "Tanzania", open: true },
      { id: MARKET_IDS.KE, iso2: "KE", calling_code: "254", name: "Kenya", open: false },
      { id: MARKET_IDS.UG, iso2: "UG", calling_code: "256", name: "Uganda", open: false },
      { id: MARKET_IDS.RW, iso2: "RW", calling_code: "250", name: "Rwanda", open: false }
    ])
  } ON CONFLICT (iso2) DO NOTHING`)

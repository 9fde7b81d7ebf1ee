/**
 * Starts the example backend: `npm start` (PORT, default 4100). The store is the embedded database
 * in TUMA_DATA_DIR (default memory://), or PostgreSQL when DATABASE_URL is set. A demo organisation
 * and user are created at start-up; log in as demo@shop.example / demo-password.
 */
import { Database } from "@tuma/store-sql"
import { Effect } from "effect"
import { buildApp } from "./app.js"
import { provisionCarrier, provisionOrganisation } from "./provision.js"
import { makeTuma } from "./tuma.js"
import { Users } from "./users.js"

const env = process.env
const tuma = makeTuma(
  env.DATABASE_URL ? Database.postgres(env.DATABASE_URL) : Database.pglite(env.TUMA_DATA_DIR ?? "memory://")
)
const users = new Users()
const organisation = await tuma.runPromise(
  Effect.zipRight(
    provisionCarrier,
    provisionOrganisation({
      name: "Demo Shop",
      email: `ops+${Date.now()}@shop.example`,
      credits: 100,
      senderId: "SHOP"
    })
  )
)
users.add("demo@shop.example", "demo-password", organisation)

const app = buildApp({ tuma, users })
const address = await app.listen({ port: Number(env.PORT ?? 4100), host: "127.0.0.1" })
console.log(`example backend on ${address} (log in as demo@shop.example / demo-password)`)
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void app.close())

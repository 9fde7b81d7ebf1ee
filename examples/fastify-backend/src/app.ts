/**
 * The backend's HTTP surface. Its own routes and auth; Tuma's use cases are called through the
 * shared runtime, and Tuma's typed refusals become this backend's own error responses.
 *
 *   POST /login               { email, password } → { token }
 *   POST /notifications/sms   { phone, text }     → 201 { id, status, units, encoding }
 *   GET  /credits                                 → { total, countries: { TZ: 97 } }
 */
import { Reads, Send, type SendCaller } from "@tuma/core"
import { Effect, Either } from "effect"
import Fastify, { type FastifyInstance, type FastifyRequest } from "fastify"
import { fromSendError } from "./errors.js"
import type { Tuma } from "./tuma.js"
import type { User, Users } from "./users.js"

declare module "fastify" {
  interface FastifyRequest {
    user: User | undefined
  }
}

const callerOf = (user: User): SendCaller => ({
  accountId: user.organisation.tumaAccountId,
  apiKeyId: user.organisation.tumaApiKeyId,
  mode: "live"
})

export const buildApp = (options: { readonly tuma: Tuma; readonly users: Users }): FastifyInstance => {
  const { tuma, users } = options
  const app = Fastify({ logger: false })
  app.decorateRequest("user", undefined)

  // our own error format for everything that is not a refusal: bad JSON, defects
  app.setErrorHandler((error: { statusCode?: number; message: string }, _request, reply) => {
    const status = error.statusCode !== undefined && error.statusCode < 500 ? error.statusCode : 500
    void reply.code(status).send({
      error: status === 500 ? "internal" : "bad_request",
      detail: status === 500 ? "" : error.message
    })
  })

  app.post<{ Body: { email?: unknown; password?: unknown } }>("/login", async (request, reply) => {
    const { email, password } = request.body ?? {}
    const token = typeof email === "string" && typeof password === "string" ? users.login(email, password) : undefined
    if (token === undefined) {
      return reply.code(401).send({ error: "unauthenticated", detail: "wrong e-mail or password" })
    }
    return { token }
  })

  const authenticate = async (request: FastifyRequest) => {
    const header = request.headers.authorization ?? ""
    request.user = header.startsWith("Bearer ") ? users.session(header.slice(7)) : undefined
  }

  app.register(async (authed) => {
    authed.addHook("preHandler", async (request, reply) => {
      await authenticate(request)
      if (request.user === undefined) {
        return reply.code(401).send({ error: "unauthenticated", detail: "log in first" })
      }
    })

    authed.post<{ Body: { phone?: unknown; text?: unknown } }>("/notifications/sms", async (request, reply) => {
      const user = request.user!
      const { phone, text } = request.body ?? {}
      const result = await tuma.runPromise(
        Effect.either(Effect.flatMap(Send, (send) =>
          send.single(callerOf(user), {
            recipient: typeof phone === "string" ? phone : "",
            sender_id: user.organisation.senderId,
            body: typeof text === "string" ? text : ""
          })))
      )
      if (Either.isLeft(result)) {
        const { body, status } = fromSendError(result.left)
        return reply.code(status).send(body)
      }
      const sent = result.right.data
      return reply.code(201).send({
        id: sent.uid,
        status: sent.status,
        units: sent.units,
        encoding: sent.encoding.final
      })
    })

    authed.get("/credits", async (request) => {
      const balance = await tuma.runPromise(
        Effect.flatMap(Reads, (reads) => reads.balance(request.user!.organisation.tumaAccountId))
      )
      return {
        total: Number(balance.balance),
        countries: Object.fromEntries(balance.countries.map((c) => [c.country, Number(c.balance)]))
      }
    })
  })

  app.addHook("onClose", () => tuma.dispose())
  return app
}

/**
 * This backend's own users and sessions (Tuma knows nothing of them). Each user belongs to an
 * organisation that owns one Tuma account; passwords are scrypt hashes, sessions random tokens.
 * In memory for the example: a real backend keeps these in its own database.
 */
import { randomBytes, scryptSync, timingSafeEqual } from "node:crypto"

export interface Organisation {
  readonly name: string
  /** The Tuma account this organisation sends from, and the API key its sends are recorded under. */
  readonly tumaAccountId: string
  readonly tumaApiKeyId: string
  readonly senderId: string
}

export interface User {
  readonly email: string
  readonly organisation: Organisation
}

interface StoredUser extends User {
  readonly salt: Buffer
  readonly hash: Buffer
}

export class Users {
  readonly #users = new Map<string, StoredUser>()
  readonly #sessions = new Map<string, User>()

  add(email: string, password: string, organisation: Organisation): User {
    const salt = randomBytes(16)
    const user = { email, organisation, salt, hash: scryptSync(password, salt, 32) }
    this.#users.set(email.toLowerCase(), user)
    return { email, organisation }
  }

  /** A session token, or undefined for an unknown e-mail or a wrong password. */
  login(email: string, password: string): string | undefined {
    const user = this.#users.get(email.toLowerCase())
    if (user === undefined || !timingSafeEqual(scryptSync(password, user.salt, 32), user.hash)) return undefined
    const token = randomBytes(24).toString("base64url")
    this.#sessions.set(token, { email: user.email, organisation: user.organisation })
    return token
  }

  session(token: string): User | undefined {
    return this.#sessions.get(token)
  }
}

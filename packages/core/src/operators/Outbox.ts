/**
 * The demo mail outbox as the console reads it: the mails kept instead of sent because no mail
 * server is configured (`TUMA_SMTP_URL`), newest first. Who may read it is the domain's
 * `outbox.read` permission (admins: the mails hold invitation and password-reset links).
 */
import { Effect } from "effect"
import { MailOutbox } from "../ports/Notifiers.js"

/** The newest `limit` mails of the outbox. */
export const readOutbox = (limit: number) => Effect.flatMap(MailOutbox, (outbox) => outbox.list(limit))

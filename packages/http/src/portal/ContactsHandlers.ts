/**
 * Handlers of the portal's `portalContacts` and `portalTemplates` groups over core's `Contacts` use
 * cases: the account is always the session's, national numbers are read in the account's country,
 * rows are answered in the API's snake_case with `uid`s. Owner-only endpoints (deleting contacts and
 * groups, importing) are declared `forOwner` in the contract.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Contacts, ContactStore, Ids } from "@tuma/core"
import type { ContactRow, GroupRow, TemplateRow } from "@tuma/core"
import { Effect } from "effect"
import { TumaApi } from "../Api.js"
import { requestUid } from "../shared/Envelope.js"
import { CurrentPortalUser } from "./Api.js"
import { localCountry } from "./MessagingHandlers.js"
import { done, mapFailure, ok } from "./Views.js"

const contactView = (c: ContactRow) => ({
  uid: c.id,
  phone: c.phone,
  name: c.name,
  fields: c.fields,
  opted_out: c.opted_out,
  groups: c.groups.map((g) => ({ uid: g.id, name: g.name })),
  created_at: c.created_at.toISOString(),
  updated_at: c.updated_at.toISOString()
})

const groupView = (g: GroupRow) => ({
  uid: g.id,
  name: g.name,
  contacts: g.contacts,
  opted_out: g.opted_out,
  created_at: g.created_at.toISOString()
})

const templateView = (t: TemplateRow) => ({
  uid: t.id,
  name: t.name,
  body: t.body,
  created_at: t.created_at.toISOString(),
  updated_at: t.updated_at.toISOString()
})

const contactInput = (p: {
  readonly phone: string
  readonly name?: string | undefined
  readonly fields?: Readonly<Record<string, string>> | undefined
  readonly group_uids?: ReadonlyArray<string> | undefined
}) => ({ phone: p.phone, name: p.name, fields: p.fields, groups: p.group_uids })

/** Runs a `Contacts` use case with the store and the ids of the handlers' context. */
const runner = Effect.map(
  Effect.context<ContactStore | Ids>(),
  (context) => <A, E>(effect: Effect.Effect<A, E, ContactStore | Ids>) => Effect.provide(effect, context)
)

export const PortalContactsLive = HttpApiBuilder.group(TumaApi, "portalContacts", (handlers) =>
  Effect.gen(function*() {
    const run = yield* runner

    return handlers
      .handle("listContacts", ({ urlParams }) =>
        Effect.gen(function*() {
          const user = yield* CurrentPortalUser
          const perPage = Math.min(Math.max(Math.floor(urlParams.per_page ?? 50), 1), 200)
          const page = Math.max(Math.floor(urlParams.page ?? 1), 1)
          const { rows, total } = yield* run(Contacts.listContacts(user.accountId, {
            search: urlParams.q,
            groupId: urlParams.group_uid,
            page,
            perPage
          }))
          return {
            success: true as const,
            request_uid: yield* requestUid,
            data: rows.map(contactView),
            meta: { current_page: page, per_page: perPage, total, last_page: Math.max(1, Math.ceil(total / perPage)) }
          }
        }))
      .handle("createContact", ({ payload }) =>
        Effect.gen(function*() {
          const user = yield* CurrentPortalUser
          const country = yield* localCountry(user)
          const c = yield* run(Contacts.createContact(user.accountId, contactInput(payload), country)).pipe(mapFailure)
          return yield* ok(contactView(c))
        }))
      .handle("importContacts", ({ payload }) =>
        Effect.gen(function*() {
          const user = yield* CurrentPortalUser
          const country = yield* localCountry(user)
          const report = yield* run(Contacts.importContacts(user.accountId, {
            rows: payload.rows,
            mapping: payload.mapping,
            groupId: payload.group_uid,
            dryRun: payload.dry_run ?? false
          }, country)).pipe(mapFailure)
          return yield* ok(report)
        }))
      .handle("getContact", ({ path }) =>
        Effect.flatMap(CurrentPortalUser, (user) =>
          run(Contacts.contactOf(user.accountId, path.contact_uid)).pipe(
            mapFailure,
            Effect.flatMap((c) =>
              ok(contactView(c))
            )
          )))
      .handle("updateContact", ({ path, payload }) =>
        Effect.gen(function*() {
          const user = yield* CurrentPortalUser
          const country = yield* localCountry(user)
          const c = yield* run(Contacts.updateContact(user.accountId, path.contact_uid, contactInput(payload), country))
            .pipe(mapFailure)
          return yield* ok(contactView(c))
        }))
      .handle("deleteContact", ({ path }) =>
        Effect.flatMap(CurrentPortalUser, (user) =>
          run(Contacts.deleteContact(user.accountId, path.contact_uid)).pipe(mapFailure, Effect.zipRight(done))))
      .handle("listGroups", () =>
        Effect.flatMap(CurrentPortalUser, (user) =>
          run(Contacts.groupsOf(user.accountId)).pipe(Effect.flatMap((gs) =>
            ok(gs.map(groupView))
          ))))
      .handle("createGroup", ({ payload }) =>
        Effect.flatMap(CurrentPortalUser, (user) =>
          run(Contacts.createGroup(user.accountId, payload.name)).pipe(
            mapFailure,
            Effect.flatMap((g) =>
              ok(groupView(g))
            )
          )))
      .handle("groupRecipients", ({ payload }) =>
        Effect.flatMap(CurrentPortalUser, (user) =>
          run(Contacts.groupRecipients(user.accountId, payload.group_uids)).pipe(mapFailure, Effect.flatMap(ok))))
      .handle("renameGroup", ({ path, payload }) =>
        Effect.flatMap(CurrentPortalUser, (user) =>
          run(Contacts.renameGroup(user.accountId, path.group_uid, payload.name)).pipe(
            mapFailure,
            Effect.flatMap((g) =>
              ok(groupView(g))
            )
          )))
      .handle("deleteGroup", ({ path }) =>
        Effect.flatMap(CurrentPortalUser, (user) =>
          run(Contacts.deleteGroup(user.accountId, path.group_uid)).pipe(mapFailure, Effect.zipRight(done))))
  }))

export const PortalTemplatesLive = HttpApiBuilder.group(
  TumaApi,
  "portalTemplates",
  (handlers) =>
    Effect.gen(function*() {
      const run = yield* runner

      return handlers
        .handle("listTemplates", () =>
          Effect.flatMap(CurrentPortalUser, (user) =>
            run(Contacts.templatesOf(user.accountId)).pipe(Effect.flatMap((ts) =>
              ok(ts.map(templateView))
            ))))
        .handle("createTemplate", ({ payload }) =>
          Effect.flatMap(CurrentPortalUser, (user) =>
            run(Contacts.createTemplate(user.accountId, payload)).pipe(
              mapFailure,
              Effect.flatMap((t) =>
                ok(templateView(t))
              )
            )))
        .handle("updateTemplate", ({ path, payload }) =>
          Effect.flatMap(CurrentPortalUser, (user) =>
            run(Contacts.updateTemplate(user.accountId, path.template_uid, payload)).pipe(
              mapFailure,
              Effect.flatMap((t) =>
                ok(templateView(t))
              )
            )))
        .handle("deleteTemplate", ({ path }) =>
          Effect.flatMap(CurrentPortalUser, (user) =>
            run(Contacts.deleteTemplate(user.accountId, path.template_uid)).pipe(mapFailure, Effect.zipRight(done))))
    })
)

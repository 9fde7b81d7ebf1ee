/**
 * Contacts, groups and templates (core `Contacts` over `SqlContactStore`), on PGlite and PostgreSQL:
 * an import reports its bad rows by 1-based row number, merges a number met twice and a number the
 * account already has (fields merged, not replaced), marks opted-out contacts and leaves them out of
 * a campaign's recipients; a dry run writes nothing; one number is one contact; names of groups and
 * templates are unique per account in any case; another account's rows are not reachable; the
 * template's tags must compile; a campaign keeps the text it was written with.
 */
import { SqlClient } from "@effect/sql"
import { expect } from "@effect/vitest"
import { Contacts, OperatorStore, Send } from "@tuma/core"
import { Effect, Either, Layer } from "effect"
import * as SqlContactStore from "../src/SqlContactStore.js"
import { setupAccount, stack, TZ1, TZ2, TZ3 } from "./fixtures.js"
import { forEachDriver, type SqlDriverName } from "./harness.js"

const layers = (db: Layer.Layer<SqlClient.SqlClient>, driver: SqlDriverName) =>
  Layer.mergeAll(stack.sql(db, driver), SqlContactStore.layer.pipe(Layer.provide(db)), db)

const rows = (...cells: ReadonlyArray<ReadonlyArray<string>>) => cells.map((c, i) => ({ row: i + 2, cells: c }))

forEachDriver(layers, (it) => {
  it.live("an import: bad rows by row number, repeats merged, known numbers merged, opted-out marked", () =>
    Effect.gen(function*() {
      const { account } = yield* setupAccount()
      const other = yield* setupAccount()
      const op = yield* OperatorStore
      yield* op.insertOptOut(account.id, TZ3, "STOP", new Date())
      const group = yield* Contacts.createGroup(account.id, "Customers")
      // the account knows TZ1 already, with a field the import does not give
      yield* Contacts.createContact(account.id, { phone: TZ1, name: "Old", fields: { city: "Arusha" } }, "TZ")
      const input = {
        rows: rows(
          ["0712 345 678", "Asha", "100"],
          ["not a number", "Bad", "1"],
          ["+255713345678", "Baraka", "200"],
          ["0713345678", "", "250"],
          ["0714345678", "Chausiku", "300"],
          ["", "Nobody", "5"]
        ),
        mapping: { phone: 0, name: 1, fields: [{ column: 2, key: "Amount" }] },
        groupId: group.id
      }
      const dry = yield* Contacts.importContacts(account.id, { ...input, dryRun: true }, "TZ")
      expect(dry).toMatchObject({
        dry_run: true,
        rows: 6,
        added: 2,
        updated: 1,
        duplicates: 1,
        invalid: 2,
        opted_out: 1
      })
      expect((yield* Contacts.listContacts(account.id, { page: 1, perPage: 50 })).total).toBe(1)

      const done = yield* Contacts.importContacts(account.id, { ...input, dryRun: false }, "TZ")
      expect(done).toMatchObject({ dry_run: false, added: 2, updated: 1, duplicates: 1, invalid: 2, opted_out: 1 })
      expect(done.problems.map((p) => [p.row, p.kind])).toEqual([[3, "invalid"], [5, "duplicate"], [7, "invalid"]])
      expect(done.problems[1].messages[0]).toContain("row 4")

      const list = yield* Contacts.listContacts(account.id, { page: 1, perPage: 50 })
      expect(list.total).toBe(3)
      const byPhone = new Map(list.rows.map((c) => [c.phone, c]))
      // merged into the known contact: the new name, the old field kept, the new field added
      expect(byPhone.get(TZ1)).toMatchObject({ name: "Asha", fields: { city: "Arusha", amount: "100" } })
      // a repeat of a row in the same file: its non-empty values win, an empty name does not erase
      expect(byPhone.get(TZ2)).toMatchObject({ name: "Baraka", fields: { amount: "250" }, opted_out: false })
      expect(byPhone.get(TZ3)).toMatchObject({ opted_out: true, groups: [{ id: group.id, name: "Customers" }] })

      const groups = yield* Contacts.groupsOf(account.id)
      expect(groups).toMatchObject([{ name: "Customers", contacts: 3, opted_out: 1 }])
      const recipients = yield* Contacts.groupRecipients(account.id, [group.id])
      expect(recipients.opted_out).toBe(1)
      expect(recipients.recipients).toEqual([
        { to: TZ1, name: "Asha", city: "Arusha", amount: "100" },
        { to: TZ2, name: "Baraka", amount: "250" }
      ])
      // search by name, number or field; the group filter
      expect((yield* Contacts.listContacts(account.id, { search: "arush", page: 1, perPage: 50 })).total).toBe(1)
      expect((yield* Contacts.listContacts(account.id, { search: "+2557123", page: 1, perPage: 50 })).total).toBe(1)
      expect((yield* Contacts.listContacts(account.id, { search: "%", page: 1, perPage: 50 })).total).toBe(0)
      expect((yield* Contacts.listContacts(account.id, { groupId: group.id, page: 1, perPage: 50 })).total).toBe(3)

      // another account sees none of it and cannot reach it by id
      expect((yield* Contacts.listContacts(other.account.id, { page: 1, perPage: 50 })).total).toBe(0)
      const stranger = yield* Effect.either(Contacts.groupRecipients(other.account.id, [group.id]))
      expect(Either.isLeft(stranger) && stranger.left._tag).toBe("ResourceNotFound")
      const reach = yield* Effect.either(Contacts.deleteContact(other.account.id, byPhone.get(TZ1)!.id))
      expect(Either.isLeft(reach)).toBe(true)
    }).pipe(Effect.orDie))

  it.live("one number is one contact; an edit to a taken number is refused; a bad mapping refuses the import", () =>
    Effect.gen(function*() {
      const { account } = yield* setupAccount()
      const a = yield* Contacts.createContact(account.id, { phone: "0712345678", name: "A" }, "TZ")
      expect(a.phone).toBe(TZ1)
      const again = yield* Effect.either(Contacts.createContact(account.id, { phone: TZ1 }, "TZ"))
      expect(Either.isLeft(again) && again.left._tag).toBe("ResourceConflict")
      const b = yield* Contacts.createContact(account.id, { phone: TZ2, fields: { first_name: "Bee" } }, "TZ")
      const taken = yield* Effect.either(Contacts.updateContact(account.id, b.id, { phone: TZ1 }, "TZ"))
      expect(Either.isLeft(taken) && taken.left._tag).toBe("ResourceConflict")
      const bad = yield* Effect.either(Contacts.createContact(account.id, { phone: TZ3, fields: { to: "x" } }, "TZ"))
      expect(Either.isLeft(bad) && bad.left._tag).toBe("ValidationFailed")
      const mapping = yield* Effect.either(
        Contacts.importContacts(account.id, { rows: rows(["x"]), mapping: { phone: 3 }, dryRun: false }, "TZ")
      )
      expect(Either.isLeft(mapping) && mapping.left._tag).toBe("ValidationFailed")
      // groups: case-insensitively unique; deleting one keeps its contacts
      const g = yield* Contacts.createGroup(account.id, "VIP")
      const dup = yield* Effect.either(Contacts.createGroup(account.id, "vip"))
      expect(Either.isLeft(dup) && dup.left._tag).toBe("ResourceConflict")
      yield* Contacts.updateContact(account.id, b.id, { phone: TZ2, name: "Bee", groups: [g.id] }, "TZ")
      expect((yield* Contacts.contactOf(account.id, b.id)).groups).toEqual([{ id: g.id, name: "VIP" }])
      yield* Contacts.deleteGroup(account.id, g.id)
      expect((yield* Contacts.contactOf(account.id, b.id)).groups).toEqual([])
      yield* Contacts.deleteContact(account.id, a.id)
      expect((yield* Contacts.listContacts(account.id, { page: 1, perPage: 10 })).total).toBe(1)
    }).pipe(Effect.orDie))

  it.live("templates: tags must compile, names unique per account; a campaign keeps its text", () =>
    Effect.gen(function*() {
      const { account, caller } = yield* setupAccount()
      const broken = yield* Effect.either(Contacts.createTemplate(account.id, { name: "Bad", body: "{= 1 + }" }))
      expect(Either.isLeft(broken) && broken.left._tag).toBe("ValidationFailed")
      const t = yield* Contacts.createTemplate(account.id, { name: "Reminder", body: "Hi {name}, pay {amount}" })
      const dup = yield* Effect.either(Contacts.createTemplate(account.id, { name: "REMINDER", body: "x" }))
      expect(Either.isLeft(dup) && dup.left._tag).toBe("ResourceConflict")
      const changed = yield* Contacts.updateTemplate(account.id, t.id, { name: "Reminder", body: "Hello {name}" })
      expect(changed.body).toBe("Hello {name}")
      expect((yield* Contacts.templatesOf(account.id)).map((x) => x.name)).toEqual(["Reminder"])
      yield* Contacts.deleteTemplate(account.id, t.id)
      expect(yield* Contacts.templatesOf(account.id)).toEqual([])

      const send = yield* Send
      const out = yield* send.bulkV2(caller, {
        recipients: [{ to: TZ1, name: "Asha" }],
        message: "Hello {name}",
        sender_id: "TUMA"
      })
      const sql = yield* SqlClient.SqlClient
      const [c] = yield* sql<{ message: string | null }>`SELECT message FROM campaigns WHERE id = ${out.data.uid}`
      expect(c.message).toBe("Hello {name}")
    }).pipe(Effect.orDie))
})

export * as Database from "./Database.js"
export * as Migrations from "./Migrations.js"
export * as PgliteClient from "./PgliteClient.js"
export * as WebhookStoreSql from "./WebhookStoreSql.js"

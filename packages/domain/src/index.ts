export * from "./errors.js"
export * from "./webhook.js"

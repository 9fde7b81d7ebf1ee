export {}
export * from "./mail/index.js"
export * from "./webhook/index.js"

export * from "./errors.js"

/**
 * The send use cases: `Send` (single, bulk v1, bulk v2), their model and settings, and the
 * duplicate-content limit.
 */
export * from "./DuplicateContent.js"
export * from "./model.js"
export * from "./Send.js"

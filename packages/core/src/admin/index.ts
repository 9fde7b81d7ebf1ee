/**
 * The operator side: `Admin` (the admin API's use cases, one module per sub-domain), `Operator`
 * (the set-up steps tests, examples and the CLI use), their payloads, views and key rules.
 */
export * from "./Admin.js"
export * from "./apiKeys.js"
export * from "./inputs.js"
export * from "./Operator.js"
export * from "./views.js"
export * from "./viewsOf.js"
export { checkPurchase, type Purchase, recordPurchase } from "./wallets.js"

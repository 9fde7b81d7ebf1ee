/**
 * The console's operators: their access (sign-in, TOTP, invitations, roles) and sender-ID review.
 *
 * @module @tuma/core/operators
 */
export * as ManualRules from "./ManualRules.js"
export * as OperatorAccess from "./OperatorAccess.js"
export * as Outbox from "./Outbox.js"
export * as Review from "./Review.js"

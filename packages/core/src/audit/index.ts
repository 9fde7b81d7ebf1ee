/**
 * The audit log of operator actions: `Actor` (who acts), `Audit` (record, search, atomically).
 */
export * from "./Actor.js"
export * from "./Audit.js"
export * from "./TargetNames.js"
export * from "./views.js"

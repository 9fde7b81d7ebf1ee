export * from "./Operator.js"
export * from "./ports/Ids.js"
export * from "./ports/OperatorStore.js"
export * from "./ports/SendStore.js"

/**
 * Tuma's carriers (SMPP, simulated), the SMSC simulator, the SMTP mailer and the webhook sender.
 *
 * @module @tuma/providers
 */
export {}
export * from "./mail/index.js"
export * from "./ProvidersFromStore.js"
export * from "./simulated/SimulatedProvider.js"
export * from "./smpp/codec.js"
export * from "./smpp/SmppClient.js"
export * from "./smpp/SmppProvider.js"
export * from "./smsc/SmscSimulator.js"
export * from "./webhook/index.js"

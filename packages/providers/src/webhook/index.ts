export * from "./addressPolicy.js"
export * from "./HttpWebhookSender.js"

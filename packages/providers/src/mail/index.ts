export * from "./SmtpMailer.js"

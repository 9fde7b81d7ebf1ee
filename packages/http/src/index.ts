/**
 * @tuma/http: the HTTP contract (`TumaApi`), its server assembly, middlewares and the `tuma`
 * command. Import submodules directly (`@tuma/http/Api`, `@tuma/http/Server`, …) or the namespaces
 * below.
 *
 * @module @tuma/http
 */
export * as AdminApi from "./admin/Api.js"
export * as Api from "./Api.js"
export * as Auth from "./shared/Auth.js"
/** IP addresses and CIDR blocks (moved to `@tuma/domain`; re-exported here for existing importers). */
export { Cidr } from "@tuma/domain"
export * as Config from "./runtime/Config.js"
export * as Scheduling from "./runtime/Scheduling.js"
export * as Server from "./Server.js"
export * as Envelope from "./shared/Envelope.js"
export * as Security from "./shared/Security.js"

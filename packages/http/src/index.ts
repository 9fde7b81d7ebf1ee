/**
 * @tuma/http: the HTTP contract (`TumaApi`), its server assembly, middlewares and the `tuma`
 * command. Import submodules directly (`@tuma/http/Api`, `@tuma/http/Server`, …) or the namespaces
 * below.
 *
 * @module @tuma/http
 */
export * as AdminApi from "./AdminApi.js"
export * as Api from "./Api.js"
export * as Auth from "./Auth.js"
/** IP addresses and CIDR blocks (moved to `@tuma/domain`; re-exported here for existing importers). */
export { Cidr } from "@tuma/domain"
export * as Config from "./Config.js"
export * as Envelope from "./Envelope.js"
export * as Scheduling from "./Scheduling.js"
export * as Security from "./Security.js"
export * as Server from "./Server.js"

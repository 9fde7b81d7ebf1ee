/**
 * The operator surface ("the portal" of the spec) under `/admin/v1`, bearer `TUMA_ADMIN_TOKEN`.
 */
import { HttpApi } from "@effect/platform"
import { Schema } from "effect"

const base = HttpApi.make("admin")
;(base as any).errorSchema = Schema.Never

export class AdminApi extends base {}

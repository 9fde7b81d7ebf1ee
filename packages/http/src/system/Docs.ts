/**
 * `GET /docs`: the interactive API documentation (Scalar), built on the first request.
 *
 * `HttpApiScalar.layer` inlines Scalar's browser bundle (a 3 MB JavaScript string, held twice by
 * V8: as module source and as the string) and renders the page when the server starts; importing
 * it costs an idle server ≈13 MB of heap it never uses unless someone opens /docs. This layer routes
 * /docs to the same page, but imports `@effect/platform/HttpApiScalar` and builds its page (over
 * the same API) only when /docs is first requested, then keeps it.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Effect, Layer } from "effect"

/** The Scalar page of the served API at `path`, imported and rendered on first request. */
export const layer = (options: { readonly path: `/${string}` }) =>
  HttpApiBuilder.Router.use((router) =>
    Effect.gen(function*() {
      const api = yield* HttpApi.Api
      const page = yield* Effect.cached(
        Effect.promise(() => import("@effect/platform/HttpApiScalar")).pipe(
          Effect.flatMap((Scalar) =>
            HttpApiBuilder.Router.router.pipe(
              Effect.provide(
                Scalar.layer({ path: options.path }).pipe(
                  Layer.provideMerge(HttpApiBuilder.Router.Live),
                  Layer.provide(Layer.succeed(HttpApi.Api, api))
                )
              )
            )
          )
        )
      )
      yield* router.get(options.path, Effect.flatten(page))
    })
  )

/** Handlers of the console's operators: list, invite, role, disable and enable. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Effect } from "effect"
import { TumaApi } from "../../Api.js"
import { PortalRequest } from "../../portal/Session.js"
import { asOperator } from "../Http.js"
import { operators } from "./helpers.js"

export const ConsoleOperatorsLive = HttpApiBuilder.group(
  TumaApi,
  "consoleOperators",
  (handlers) =>
    Effect.map(PortalRequest, (portal) =>
      handlers
        .handle("list", () => asOperator(() => operators((a) => a.list)))
        .handle("invite", ({ payload, request }) =>
          asOperator(() =>
            Effect.map(
              operators((a) => a.create({ ...payload, linkBase: portal.baseUrl(request) })),
              ({ link, mail, operator }) => ({ ...operator, mail, link: mail === "sent" ? null : link })
            )
          ))
        .handle("setRole", ({ path, payload }) => asOperator(() => operators((a) => a.setRole(path.uid, payload.role))))
        .handle("disable", ({ path }) => asOperator(() => operators((a) => a.setDisabled(path.uid, true))))
        .handle("enable", ({ path }) => asOperator(() => operators((a) => a.setDisabled(path.uid, false)))))
)

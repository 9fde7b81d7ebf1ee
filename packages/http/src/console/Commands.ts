/**
 * `tuma operator …` (issue 15): operator users of the console from the command line, over core's
 * `OperatorAccess` (the same use cases as the console's Operators page). `create` mails the
 * invitation (TUMA_SMTP_URL) and prints the link too, for when no SMTP server is configured.
 */
import { OperatorAccess } from "@tuma/core/operators/OperatorAccess"
import { Effect } from "effect"

type Flags = Record<string, string | boolean | undefined>

const req = (flags: Flags, name: string): string => {
  const v = flags[name]
  if (typeof v !== "string" || v === "") throw new Error(`--${name} is required`)
  return v
}
const arg = (args: ReadonlyArray<string>, i: number, name: string) => {
  if (args[i] === undefined) throw new Error(`${name} is required`)
  return args[i]
}
const operators = <A, E>(f: (a: OperatorAccess["Type"]) => Effect.Effect<A, E>) => Effect.flatMap(OperatorAccess, f)

/** The `operator …` commands, in `Cli.commands`' shape. */
export const operatorCommands = {
  "operator create": {
    usage: "--email EMAIL --role admin|reviewer|support [--name NAME]   (invited by e-mail)",
    flags: ["email", "role", "name"],
    run: (f: Flags) =>
      operators((a) =>
        a.create({
          email: req(f, "email"),
          role: req(f, "role"),
          name: typeof f.name === "string" ? f.name : undefined,
          linkBase: process.env.TUMA_PUBLIC_URL || `http://127.0.0.1:${process.env.PORT || "3000"}`
        })
      ).pipe(Effect.map(({ link, operator }) => ({ ...operator, invitation_link: link })))
  },
  "operator list": { usage: "", run: () => operators((a) => a.list) },
  "operator role": {
    usage: "OPERATOR_UID --role admin|reviewer|support",
    flags: ["role"],
    run: (f: Flags, a: ReadonlyArray<string>) => operators((x) => x.setRole(arg(a, 0, "OPERATOR_UID"), req(f, "role")))
  },
  "operator disable": {
    usage: "OPERATOR_UID   (ends their sessions)",
    run: (_: Flags, a: ReadonlyArray<string>) => operators((x) => x.setDisabled(arg(a, 0, "OPERATOR_UID"), true))
  },
  "operator enable": {
    usage: "OPERATOR_UID",
    run: (_: Flags, a: ReadonlyArray<string>) => operators((x) => x.setDisabled(arg(a, 0, "OPERATOR_UID"), false))
  }
}

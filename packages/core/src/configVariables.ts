/**
 * Core's settings read through Effect's `Config` (never `process.env`): a record of optional string
 * variables, handed to a pure parser. The environment is the default `ConfigProvider`; a test or an
 * embedding backend provides another (`ConfigProvider.fromMap`, `Effect.withConfigProvider`).
 */
import { Config, ConfigError, Either, Option } from "effect"

/** A record of optional string variables read through `Config` (unset = `undefined`). */
export const configVariables = (
  names: ReadonlyArray<string>
): Config.Config<Readonly<Record<string, string | undefined>>> =>
  Config.map(Config.all(names.map((name) => Config.option(Config.string(name)))), (values) => {
    const record: Record<string, string | undefined> = {}
    names.forEach((name, i) => {
      record[name] = Option.getOrUndefined(values[i])
    })
    return record
  })

/** `parse` over `config`, the message of what it throws becoming a `ConfigError.InvalidData`. */
export const parsedConfig = <A, B>(config: Config.Config<A>, parse: (a: A) => B): Config.Config<B> =>
  Config.mapOrFail(config, (a) => {
    try {
      return Either.right(parse(a))
    } catch (e) {
      return Either.left(ConfigError.InvalidData([], e instanceof Error ? e.message : String(e)))
    }
  })

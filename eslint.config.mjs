import js from "@eslint/js"
import effect from "@effect/eslint-plugin"
import tseslint from "typescript-eslint"

const platformIndex = {
  name: "@effect/platform",
  message: "Import the module by path (`@effect/platform/HttpApiBuilder`): the index loads every module."
}
const noNodeModules = {
  group: ["node:*"],
  message: "domain and core import no platform module: use a port (core/src/ports) or @tuma/domain/crypto."
}

export default tseslint.config(
  { ignores: ["**/node_modules/**", "**/.tuma/**", "**/dist/**", "**/*.mjs"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...effect.configs.dprint,
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-namespace": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-empty-object-type": "off",
      "no-control-regex": "off",
      "no-misleading-character-class": "off",
      "@effect/dprint": ["error", {
        config: {
          indentWidth: 2,
          lineWidth: 120,
          semiColons: "asi",
          quoteStyle: "alwaysDouble",
          trailingCommas: "never",
          operatorPosition: "maintain",
          "arrowFunction.useParentheses": "force"
        }
      }]
    }
  },
  {
    // no `any`: the pure rules, the use cases, the carrier adapters and the HTTP service
    files: [
      "packages/domain/src/**/*.ts",
      "packages/core/src/**/*.ts",
      "packages/providers/src/**/*.ts",
      "packages/http/src/**/*.ts"
    ],
    rules: { "@typescript-eslint/no-explicit-any": "error" }
  },
  {
    // store-sql: rows decoded by Schema (src/rows.ts), so no `any`, no type assertion
    // (`as const` only) and no row type given to a statement (`sql<Row>\`…\``, `sql.unsafe<Row>(…)`),
    // which would assert the driver's answer unchecked
    files: ["packages/store-sql/src/**/*.ts"],
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/consistent-type-assertions": ["error", { assertionStyle: "never" }],
      "no-restricted-syntax": ["error", {
        selector: "TaggedTemplateExpression[typeArguments]",
        message: "Decode the rows with a Schema (store-sql/src/rows.ts) instead of typing the statement."
      }, {
        selector: "CallExpression[typeArguments][callee.property.name='unsafe']",
        message: "Decode the rows with a Schema (store-sql/src/rows.ts) instead of typing the statement."
      }]
    }
  },
  {
    // the server's memory: `@effect/platform`'s index evaluates every module, Scalar's and
    // Swagger UI's multi-megabyte bundles among them; import its modules by path. And no platform
    // modules in the rules and the use cases: I/O goes through core's ports, hashes and
    // random bytes through @tuma/domain/crypto (pure code and Web Crypto). (One block per file set:
    // a later block's options for the same rule replace an earlier one's.)
    files: ["packages/{store-sql,providers}/src/**/*.ts"],
    rules: { "no-restricted-imports": ["error", { paths: [platformIndex] }] }
  },
  {
    // surface code takes the other packages through their public entry points: never a port or a
    // memory adapter of core (a handler calls a use case), never a module of store-sql or providers
    // (the store is wired by SqlStore)
    files: ["packages/http/src/**/*.ts"],
    rules: {
      "no-restricted-imports": ["error", {
        paths: [platformIndex],
        patterns: [{
          group: ["@tuma/core/ports/*", "@tuma/core/memory/*", "@tuma/store-sql/*", "@tuma/providers/*"],
          message: "Import the package's public entry point (`@tuma/core`, `@tuma/store-sql`, `@tuma/providers`)."
        }]
      }]
    }
  },
  {
    files: ["packages/core/src/**/*.ts"],
    rules: { "no-restricted-imports": ["error", { paths: [platformIndex], patterns: [noNodeModules] }] }
  },
  {
    files: ["packages/domain/src/**/*.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [noNodeModules] }] }
  },
  {
    // the rules and the use cases read configuration through Effect's `Config` or layers, never the
    // process environment (core/src/configVariables.ts)
    files: ["packages/{domain,core}/src/**/*.ts"],
    rules: {
      "no-restricted-properties": ["error", {
        object: "process",
        property: "env",
        message: "Read settings through Effect's `Config` (or take them from a layer), not process.env."
      }]
    }
  },
  {
    // no unchecked casts in the pure rules, the use cases, the carrier adapters and the HTTP
    // service: unknown data is decoded by Schema or narrowed by a type guard (`as const` only)
    files: ["packages/{domain,core,providers,http}/src/**/*.ts"],
    rules: { "@typescript-eslint/consistent-type-assertions": ["error", { assertionStyle: "never" }] }
  },
  {
    // no `any` in the browser UI: answers of the API are `unknown` and narrowed
    files: ["packages/portal/src/**/*.{ts,tsx}"],
    rules: { "@typescript-eslint/no-explicit-any": "error" }
  },
  {
    // size: a module is one concept and a function one step; what grows past these is split into
    // named pieces (docs/architecture.md lists the exceptions and why)
    files: ["packages/*/src/**/*.{ts,tsx}"],
    rules: {
      "max-lines": ["error", { max: 500 }],
      "max-lines-per-function": ["error", { max: 150 }]
    }
  },
  {
    // a migration is SQL text, written once and never edited
    files: ["packages/store-sql/src/migrations/*.ts"],
    rules: { "max-lines-per-function": "off" }
  }
)

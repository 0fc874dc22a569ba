// @ts-check
import { readdirSync, existsSync } from "node:fs";
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import importPlugin from "eslint-plugin-import";
import globals from "globals";

const webFeaturesDir = new URL("./web/src/features/", import.meta.url);
const webFeatures = existsSync(webFeaturesDir)
  ? readdirSync(webFeaturesDir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name)
  : [];

export default tseslint.config(
  {
    ignores: ["**/node_modules/**", "web/dist/**", "data/**", "screenshots/**", ".tmp/**", "server/db/migrations/**", "coverage/**"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      // Async safety (conventions habit 8).
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
      "@typescript-eslint/switch-exhaustiveness-check": ["error", { considerDefaultExhaustiveForUnions: true }],
      eqeqeq: ["error", "always", { null: "ignore" }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/only-throw-error": "error",
      "@typescript-eslint/require-await": "off",
      "@typescript-eslint/restrict-template-expressions": ["error", { allowNumber: true, allowBoolean: true, allowNullish: true }],
      "no-console": ["error", { allow: ["warn", "error", "info"] }],
    },
  },
  {
    files: ["**/*.js", "**/*.mjs"],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ["web/src/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
      "no-restricted-imports": ["error", { patterns: [{ group: ["**/server/**", "../../server/*"], message: "The web app talks to the server over HTTP only." }] }],
    },
  },
  // Features never import each other (bulletproof-react): app → features → shared.
  ...webFeatures.map((name) => ({
    files: [`web/src/features/${name}/**/*.{ts,tsx}`],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["@/features/*", `!@/features/${name}`, `!@/features/${name}/*`], message: "Features must not import other features; lift shared code to components/ or lib/." },
            { group: ["@/app/*"], message: "Features must not import the app layer." },
          ],
        },
      ],
    },
  })),
  // No import cycles on the server or the web (conventions "Boundaries are linted on the server
  // too"). Type-only imports count too: a cycle of types still ties the features together.
  {
    files: ["server/**/*.ts", "web/src/**/*.{ts,tsx}"],
    plugins: { import: importPlugin },
    settings: {
      "import/extensions": [".ts", ".tsx", ".js", ".mjs"],
      "import/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
      // The TypeScript resolver reads both tsconfigs (server paths, the web's "@/" alias).
      "import/resolver": { typescript: { project: ["tsconfig.json", "web/tsconfig.json"] } },
    },
    rules: {
      "import/no-cycle": ["error", { ignoreExternal: true }],
    },
  },
  // The copy engine's pure decision core (server/features/copy-engine/domain): no database,
  // Fastify, realtime, HTTP or Node I/O — only #contract, big.js and its own modules.
  {
    files: ["server/features/copy-engine/domain/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            { name: "fastify", message: "domain/ is pure: no Fastify." },
            { name: "pg", message: "domain/ is pure: no database." },
            { name: "@electric-sql/pglite", message: "domain/ is pure: no database." },
            ...["fs", "path", "crypto", "child_process", "net", "http", "https", "os", "worker_threads", "timers"].map((name) => ({
              name,
              message: "domain/ is pure: no Node I/O (time and ids come in as arguments).",
            })),
          ],
          patterns: [
            { group: ["drizzle-orm", "drizzle-orm/*"], message: "domain/ is pure: no database (load in store/, pass the state in)." },
            { group: ["fastify", "fastify/*", "@fastify/*", "fastify-*"], message: "domain/ is pure: no Fastify." },
            { group: ["**/db/**", "**/db", "../../../db/*"], message: "domain/ is pure: no database (load in store/, pass the state in)." },
            { group: ["**/realtime/**", "**/realtime"], message: "domain/ is pure: no realtime (publish from the operation, not the domain)." },
            { group: ["**/http/**", "**/http"], message: "domain/ is pure: no HTTP (return a verdict; the caller maps it to an error)." },
            { group: ["node:*"], message: "domain/ is pure: no Node I/O (time and ids come in as arguments)." },
            { group: ["../*", "!../domain", "!../domain/*", "../**/*"], message: "domain/ imports only #contract, big.js and its own modules." },
          ],
        },
      ],
    },
  },
  {
    files: ["**/*.test.ts", "**/*.test.tsx", "e2e/**/*.ts", "tools/**/*.ts"],
    rules: {
      "no-console": "off",
      "@typescript-eslint/no-non-null-assertion": "off",
      // Tests poke at JSON bodies; the contract schemas parse what matters.
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-base-to-string": "off",
    },
  },
);

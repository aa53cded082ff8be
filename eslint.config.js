// Lint: ESLint's recommended rules, typescript-eslint's, and the React hooks rules for the app.
// (ESLint rather than Biome because Biome's per-platform binaries are not all on our registry,
// which breaks `npm ci` on a clean clone.)
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/** Files matching `files` must not import from the named top-level folders of src (or src/server). */
function boundary(files, forbidden, message, ignores = []) {
  const group = forbidden.flatMap((name) => [`**/${name}`, `**/${name}/**`]);
  return { files, ignores, rules: { "no-restricted-imports": ["error", { patterns: [{ group, message }] }] } };
}

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", "test-results/", ".data*/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      "@typescript-eslint/no-non-null-assertion": "off",
    },
  },
  // Runtime boundaries (issue 10 item 1): the browser app never imports server code, the
  // service and the proxy never import each other, and src/shared imports neither side. Only
  // the launcher (which starts both) and tests of the proxy (which run a real service) cross.
  boundary(["src/web/**/*.{ts,tsx}"], ["server"], "The web app runs in the browser: share code through src/shared, not src/server."),
  boundary(["src/shared/**/*.ts"], ["server", "web"], "src/shared is imported by every runtime, so it imports none of them."),
  boundary(["src/server/service/**/*.ts"], ["proxy", "launcher", "web"], "The service runs without the proxy (and behind another one): share code through src/shared or src/server/*.ts."),
  boundary(["src/server/proxy/**/*.ts"], ["service", "launcher", "web"], "The proxy runs without the local service (BASE_URL): share code through src/shared or src/server/*.ts.", ["src/server/proxy/**/*.test.ts", "src/server/proxy/testing/**"]),
  // The records compiler and store stay engine-neutral (issue 23 item 3): what differs between
  // databases is asked of the dialect (engines/engine.ts), never imported from an engine's module.
  // Tests and test helpers may start a particular engine. Repeats the service's groups, since a
  // later no-restricted-imports setting replaces an earlier one for the same files.
  {
    files: ["src/server/service/records/**/*.ts"],
    ignores: ["src/server/service/records/**/*.test.ts", "src/server/service/records/testing/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/engines/duckdb", "**/engines/duckdb/**", "**/engines/postgres", "**/engines/postgres/**"],
              message: "records/ is engine-neutral: ask the dialect (engines/engine.ts), or open an engine through engines/open.ts.",
            },
            { group: ["**/proxy", "**/proxy/**", "**/launcher", "**/launcher/**", "**/web", "**/web/**"], message: "The service runs without the proxy (and behind another one): share code through src/shared or src/server/*.ts." },
          ],
        },
      ],
    },
  },
  // The storage domain knows no HTTP (issue 23.2): it refuses with the shared failure codes and
  // routes/ chooses statuses and parses requests. Repeats the service's groups, since a later
  // no-restricted-imports setting replaces an earlier one for the same files.
  {
    files: ["src/server/service/storage/domain/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            { name: "node:http", message: "The storage domain knows no HTTP: take plain values and streams; routes/ speaks HTTP." },
            { name: "http", message: "The storage domain knows no HTTP: take plain values and streams; routes/ speaks HTTP." },
          ],
          patterns: [
            { group: ["**/proxy", "**/proxy/**", "**/launcher", "**/launcher/**", "**/web", "**/web/**"], message: "The service runs without the proxy (and behind another one): share code through src/shared or src/server/*.ts." },
            { group: ["fastify", "fastify/**", "@fastify/*", "busboy"], message: "The storage domain knows no Fastify or HTTP parsing: that belongs in storage/routes/." },
            { group: ["**/http-error", "**/routes", "**/routes/**"], message: "The storage domain refuses with StorageFailure (domain/failure.ts); routes/http-failures.ts turns it into HTTP." },
          ],
        },
      ],
    },
  },
  {
    files: ["src/web/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
    },
  },
);

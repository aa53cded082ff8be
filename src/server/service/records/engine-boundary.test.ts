/**
 * records/ stays engine-neutral (issue 23 item 3): ESLint refuses an import of an engine's own
 * module there (eslint.config.js), while the engine seam itself may be imported. Linted as text
 * under a records/ path, so the rule is checked without a file that breaks the build.
 */
import path from "node:path";
import { ESLint } from "eslint";
import { expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../../../..");

async function lint(code: string, file: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: root });
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result.messages.filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message);
}

it("refuses engines/duckdb and engines/postgres in records/, allows the seam", async () => {
  const file = "src/server/service/records/some-module.ts";
  expect(await lint('import { duckDbDialect } from "../engines/duckdb/dialect";\nexport const d = duckDbDialect;\n', file)).toEqual([
    expect.stringContaining("records/ is engine-neutral"),
  ]);
  expect(await lint('import { redactUrl } from "../../engines/postgres/connection";\nexport const r = redactUrl;\n', "src/server/service/records/import/x.ts")).toHaveLength(1);
  expect(await lint('import { EngineError } from "../engines/engine";\nexport const e = EngineError;\n', file)).toEqual([]);
  // The service's own boundary still holds in records/.
  expect(await lint('import { x } from "../../proxy/app";\nexport const y = x;\n', file)).toEqual([expect.stringContaining("without the proxy")]);
}, 60_000);

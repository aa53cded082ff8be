/** The lint boundary of issue 23.2: the storage domain may not import HTTP, Fastify or the routes. */
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const eslint = new ESLint({ cwd: process.cwd() });
const lint = async (code: string) => {
  const [result] = await eslint.lintText(code, { filePath: "src/server/service/storage/domain/probe.ts" });
  return result.messages.filter((m) => m.ruleId === "no-restricted-imports").length;
};

describe("storage/domain boundary", () => {
  it.each([
    ['import { HttpError } from "../../../http-error";'],
    ['import type { FastifyInstance } from "fastify";'],
    ['import type { IncomingMessage } from "node:http";'],
    ['import busboy from "busboy";'],
    ['import { toHttpError } from "../routes/http-failures";'],
  ])("refuses %s", async (line) => {
    expect(await lint(`${line}\nexport const x = 1;\n`)).toBe(1);
  });

  it("allows the shared failure codes", async () => {
    expect(await lint('import type { Failure } from "../../../../shared/errors";\nexport type X = Failure;\n')).toBe(0);
  });
});

/**
 * Single sign-on set up wrong: an issuer that is no OpenID provider is said to be a setting to
 * fix (at start, in the log, and on the sign-in page), not "could not be reached, try again";
 * a provider that truly cannot be reached still is.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type RawUpstream, startRawUpstream, startTestBaseboard } from "../../proxy/testing/test-baseboard";
import { createPeopleAdmin } from "../people/people-admin";
import { openSqliteTeamStore } from "../store/sqlite-store";
import { waitForMode } from "../testing/team-stack";
import { callbackFailure, oidcMisconfigured } from "./oidc-sign-in";

let notAProvider: RawUpstream;
beforeAll(async () => {
  notAProvider = await startRawUpstream((_req, res) => {
    res.writeHead(404, { "content-type": "text/html" });
    res.end("<html>no such page</html>");
  });
});
afterAll(() => notAProvider?.close());

async function boardWith(issuer: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-oidc-wrong-"));
  const store = openSqliteTeamStore(dir);
  await createPeopleAdmin(store).add({ email: "ada@example.com", role: "admin", password: "a perfectly long passphrase" });
  await store.close();
  const board = await startTestBaseboard({ DATA_DIR: dir, BASEBOARD_OIDC_ISSUER: issuer, BASEBOARD_OIDC_CLIENT_ID: "baseboard", BASEBOARD_OIDC_CLIENT_SECRET: "s" });
  await waitForMode(board.url, "people");
  const stop = board.stop;
  board.stop = async () => {
    await stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  return board;
}

it("an issuer that answers but is no OpenID provider: the page and the log say the setting is wrong", async () => {
  const board = await boardWith(notAProvider.url);
  try {
    const res = await fetch(`${board.url}/auth/oidc/start`, { redirect: "manual" });
    expect(res.status).toBe(502);
    expect(await res.text()).toContain("Single sign-on is not set up right on this server");
    expect(board.logs.join("\n")).toMatch(/single sign-on is not set up right: BASEBOARD_OIDC_ISSUER does not lead to an OpenID provider/);
  } finally {
    await board.stop();
  }
});

it("a provider that cannot be reached is still said to be unreachable (trying again may mend it)", async () => {
  const board = await boardWith("http://127.0.0.1:9/");
  try {
    const res = await fetch(`${board.url}/auth/oidc/start`, { redirect: "manual" });
    expect(res.status).toBe(502);
    expect(await res.text()).toContain("could not be reached");
  } finally {
    await board.stop();
  }
});

it("tells network failures from configuration ones", () => {
  expect(oidcMisconfigured(Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNREFUSED" } }))).toBeUndefined();
  expect(oidcMisconfigured(Object.assign(new Error("timed out"), { name: "TimeoutError" }))).toBeUndefined();
  expect(oidcMisconfigured(new Error("unexpected HTTP response status code"))).toMatch(/^BASEBOARD_OIDC_ISSUER does not lead/);
});

it("a callback that fails says why: the provider not reached, a code too old or used, or an answer that fails its checks (review 53a #4)", () => {
  expect(callbackFailure(Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNREFUSED" } }))).toMatchObject({ status: 502, message: expect.stringContaining("could not be reached") });
  expect(callbackFailure(Object.assign(new Error("server responded with an error in the response body"), { error: "invalid_grant", error_description: "grant request is invalid" }))).toMatchObject({ status: 400, message: expect.stringContaining("Start again from the sign-in page") });
  expect(callbackFailure(new Error("unexpected ID Token \"nonce\" claim value"))).toMatchObject({ status: 401, message: expect.stringContaining("could not be checked") });
});

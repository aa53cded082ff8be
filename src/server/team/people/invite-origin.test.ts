import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ADDRESS_FILE, inviteOrigin } from "./invite-origin";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-invite-origin-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("where npm run people's invite links point", () => {
  it("BASEBOARD_ORIGIN first, then the address a running Baseboard on this DATA_DIR wrote, then PORT (5173)", () => {
    expect(inviteOrigin({ DATA_DIR: dir })).toBe("http://127.0.0.1:5173");
    fs.writeFileSync(path.join(dir, ADDRESS_FILE), "http://127.0.0.1:6701\n");
    expect(inviteOrigin({ DATA_DIR: dir })).toBe("http://127.0.0.1:6701");
    expect(inviteOrigin({ DATA_DIR: dir, PORT: "7000" })).toBe("http://127.0.0.1:7000");
    expect(inviteOrigin({ DATA_DIR: dir, BASEBOARD_ORIGIN: "https://board.example.com/" })).toBe("https://board.example.com");
    fs.writeFileSync(path.join(dir, ADDRESS_FILE), "not an address");
    expect(inviteOrigin({ DATA_DIR: dir })).toBe("http://127.0.0.1:5173");
  });
});

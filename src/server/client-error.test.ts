import { describe, expect, it } from "vitest";
import { clientErrorAnswer } from "./client-error";

const err = (code: string, rawPacket?: string) => Object.assign(new Error(code), { code, rawPacket: rawPacket === undefined ? undefined : Buffer.from(rawPacket) });

describe("clientErrorAnswer", () => {
  it("tells an over-long URL (414) from over-large headers (431)", () => {
    expect(clientErrorAnswer(err("HPE_HEADER_OVERFLOW", `GET /${"a".repeat(9000)}`)).code).toBe("uri_too_long");
    expect(clientErrorAnswer(err("HPE_HEADER_OVERFLOW", `GET /${"a".repeat(9000)} HTTP/1.1\r\nHost: x\r\n`)).code).toBe("uri_too_long");
    expect(clientErrorAnswer(err("HPE_HEADER_OVERFLOW", `GET / HTTP/1.1\r\nx-big: ${"a".repeat(20000)}`)).code).toBe("headers_too_large");
  });
  it("answers a headers timeout with 408 and anything else with 400", () => {
    expect(clientErrorAnswer(err("ERR_HTTP_REQUEST_TIMEOUT")).code).toBe("request_timeout");
    expect(clientErrorAnswer(err("HPE_INVALID_METHOD", "HELLO")).code).toBe("validation_error");
  });
});

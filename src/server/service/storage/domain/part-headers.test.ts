import { describe, expect, it } from "vitest";
import { boundaryOf, partContentType } from "./part-headers";

const body = (parts: string[]) => Buffer.from(`${parts.map((p) => `--XyZ\r\n${p}\r\n`).join("")}--XyZ--\r\n`);

describe("boundaryOf", () => {
  it.each([
    ["multipart/form-data; boundary=XyZ", "XyZ"],
    ['multipart/form-data; boundary="a b"', "a b"],
    ["multipart/form-data;boundary=q;charset=x", "q"],
    ["multipart/form-data", undefined],
    [undefined, undefined],
  ])("%j → %j", (header, expected) => expect(boundaryOf(header)).toBe(expected));
});

describe("partContentType", () => {
  const key = 'Content-Disposition: form-data; name="key"\r\n\r\na.txt';
  it.each([
    ["with parameters", [key, 'Content-Disposition: form-data; name="file"; filename="a"\r\nContent-Type: text/plain;charset=utf-8\r\n\r\nhi'], "text/plain;charset=utf-8"],
    ["explicit text/plain", [key, 'content-disposition: form-data; name="file"; filename="a"\r\ncontent-type:  text/plain \r\n\r\nhi'], "text/plain"],
    ["no Content-Type", [key, 'Content-Disposition: form-data; name="file"; filename="a"\r\n\r\nhi'], null],
    ["file part first", ['Content-Disposition: form-data; name="file"\r\nContent-Type: image/png\r\n\r\n\r\n--not-it', key], "image/png"],
    ["no file part", [key], undefined],
  ])("%s", (_what, parts, expected) => {
    expect(partContentType(body(parts as string[]), "XyZ", "file")).toBe(expected);
  });

  it("is undefined when the headers are cut off by the prefix", () => {
    const full = body([key, 'Content-Disposition: form-data; name="file"\r\nContent-Type: image/png\r\n\r\nxx']);
    const cut = full.subarray(0, full.indexOf("image/png"));
    expect(partContentType(cut, "XyZ", "file")).toBeUndefined();
  });
});

/**
 * The upload key sniffer (multipart-key.ts) on real multipart bodies, fed as a proxy forwards
 * them: in pieces, with other fields first, with the key after the file, cut short by its limit.
 */
import { describe, expect, it } from "vitest";
import { multipartKeySniffer } from "./multipart-key";

const boundary = "bb-sniff";
const headers = { "content-type": `multipart/form-data; boundary=${boundary}` };
const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const file = (bytes: string) => `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="f.txt"\r\nContent-Type: text/plain\r\n\r\n${bytes}\r\n`;
const end = `--${boundary}--\r\n`;

function sniff(body: string, pieceBytes = body.length) {
  const s = multipartKeySniffer(headers);
  const buf = Buffer.from(body);
  for (let i = 0; i < buf.length && !s.done; i += pieceBytes) s.feed(buf.subarray(i, i + pieceBytes));
  return s;
}

describe("multipartKeySniffer", () => {
  it("finds the key sent before the file, whole or in 7-byte pieces", () => {
    const body = field("key", "docs/ré port.txt") + file("hello") + end;
    expect(sniff(body).key()).toBe("docs/ré port.txt");
    expect(sniff(body, 7).key()).toBe("docs/ré port.txt");
    expect(sniff(body).done).toBe(true);
  });

  it("finds it after 50 other fields", () => {
    const others = Array.from({ length: 50 }, (_, i) => field(`f${i}`, `v${i}`)).join("");
    expect(sniff(others + field("key", "late/key.txt") + file("x") + end).key()).toBe("late/key.txt");
  });

  it("gives none for a key after the file, a key cut at its 4 KB limit, or a body that is not multipart", () => {
    expect(sniff(file("x") + field("key", "after.txt") + end).key()).toBeUndefined();
    expect(sniff(field("key", "k".repeat(5000)) + file("x") + end).key()).toBeUndefined();
    const plain = multipartKeySniffer({ "content-type": "text/plain" });
    plain.feed(Buffer.from("key=x"));
    expect(plain.done).toBe(true);
    expect(plain.key()).toBeUndefined();
  });

  it("stops looking past its first 64 KB, and settles at once when done or after the wait", async () => {
    const s = multipartKeySniffer(headers);
    s.feed(Buffer.from(field("pad", "p".repeat(3000))));
    expect(s.done).toBe(false);
    const t = Date.now();
    expect(await s.settled(100)).toBeUndefined();
    expect(Date.now() - t).toBeGreaterThanOrEqual(90);
    for (let i = 0; i < 30 && !s.done; i++) s.feed(Buffer.from(field(`pad${i}`, "p".repeat(3000))));
    expect(s.done).toBe(true);
    expect(await sniff(field("key", "a.txt") + file("x") + end).settled(10_000)).toBe("a.txt");
  });
});

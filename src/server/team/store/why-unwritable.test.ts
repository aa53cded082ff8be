import { describe, expect, it } from "vitest";
import { whyUnwritable } from "./why-unwritable";

describe("why Baseboard's own store refused", () => {
  it("names the store's state from SQLite codes, PostgreSQL's SQLSTATE and messages, and errno names", () => {
    expect(whyUnwritable({ code: "SQLITE_FULL", message: "database or disk is full" })).toBe("its disk is full");
    expect(whyUnwritable({ code: "25006", message: "cannot execute INSERT in a read-only transaction" })).toBe("it is read-only");
    expect(whyUnwritable({ code: "ECONNREFUSED", message: "connect ECONNREFUSED 127.0.0.1:5432" })).toBe("its database cannot be reached");
    // A database that refuses new connections, and a pooled client whose connection was cut.
    expect(whyUnwritable({ code: "55000", message: 'database "bb" is not currently accepting connections' })).toBe("its database cannot be reached");
    expect(whyUnwritable({ message: "Client has encountered a connection error and is not queryable" })).toBe("its database cannot be reached");
    // A pooled client whose backend was terminated a moment ago: its next write (seen in CI).
    expect(whyUnwritable({ code: "EPIPE", message: "write EPIPE" })).toBe("its database cannot be reached");
    expect(whyUnwritable({ code: "ECONNRESET", message: "read ECONNRESET" })).toBe("its database cannot be reached");
    expect(whyUnwritable({ message: "timeout exceeded when trying to connect" })).toBe("its database cannot be reached");
    expect(whyUnwritable(new Error("a bug"))).toBeUndefined();
  });
});

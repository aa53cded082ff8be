/**
 * Engine failures → the one error shape (decisions §6, §9), for the kinds that are not about
 * one request's content: never with SQL, a path or a stack in the message.
 */
import { fail, type Result } from "../../../shared/errors";
import type { Dialect, EngineErrorKind, SqlEngine, SqlTx } from "./engine";
import { EngineError } from "./engine";

export function kindOf(dialect: Dialect, error: unknown): EngineErrorKind | undefined {
  if (error instanceof EngineError) return error.kind;
  return dialect.classifyError(error);
}

/** The failure for an engine error that is about the database's state, or undefined. */
export function stateFailure(kind: EngineErrorKind | undefined, dialect?: Dialect): Result<never> | undefined {
  switch (kind) {
    case "outOfMemory":
      // 503, not 507: decisions §9 keeps 507 for a disk or object store refusing a write, and a
      // read runs out of memory too (nothing was changed either way).
      return fail(
        "unavailable",
        `The database ran out of memory for this request; nothing was changed. ${dialect?.memoryAdvice ?? "Give the database more memory and retry."}`,
      );
    case "diskFull":
      return fail("insufficient_storage", "The disk holding the database is full; nothing was written. Free some space and retry.");
    case "readOnly":
      return fail("unavailable", "The database cannot be written at the moment (read-only storage); nothing was written. Retry later.");
    case "unavailable":
      // Said of a read too: "nothing was written" read oddly on a query (review 39a #8).
      // Nor "a change was not made" (review 47a #5: /api/config said so).
      return fail("unavailable", "The database is unreachable (down or restarting): nothing was read or changed; retry in a moment.");
    default:
      return undefined;
  }
}

/** A file-system error of a write (spooling an import, say) as an engine kind, or undefined. */
export function fsKind(error: unknown): EngineErrorKind | undefined {
  switch ((error as NodeJS.ErrnoException)?.code) {
    case "ENOSPC":
    case "EDQUOT":
    case "EFBIG":
      return "diskFull";
    case "EROFS":
    case "EACCES":
    case "EPERM":
      return "readOnly";
    default:
      return undefined;
  }
}

/**
 * Start-up DDL (`create table if not exists …`): on a database opened read-only the tables are
 * already there (or reads will say otherwise), so a read-only refusal is not fatal.
 */
export async function ensureSchema(engine: SqlEngine, fn: (tx: SqlTx) => Promise<void>): Promise<void> {
  try {
    await engine.write(fn);
  } catch (e) {
    if (kindOf(engine.dialect, e) !== "readOnly") throw e;
  }
}

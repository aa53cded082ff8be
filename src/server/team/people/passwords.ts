/**
 * Password hashing: argon2id through @node-rs/argon2 (a maintained binding of the reference
 * implementation), with its defaults (19 MiB, 2 passes: OWASP's minimum for argon2id). A dummy
 * hash is checked for unknown emails so that a wrong email and a wrong password take the same time.
 */
import { hash, verify } from "@node-rs/argon2";

const ARGON2ID = 2; // Algorithm.Argon2id (a const enum, which isolated modules cannot read)

export const hashPassword = (password: string) => hash(password, { algorithm: ARGON2ID });

let dummy: Promise<string> | undefined;

/** True when `password` matches `stored`; with no stored hash it still spends the same time. */
export async function checkPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  if (!stored) {
    dummy ??= hashPassword("not a real password, only here for timing");
    await verify(await dummy, password).catch(() => false);
    return false;
  }
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

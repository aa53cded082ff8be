/**
 * The secret that signs login sessions: BASEBOARD_SESSION_SECRET, or one generated on first
 * start into DATA_DIR/session-secret (mode 0600) and reused after. Give every proxy the same
 * secret (the variable, or a shared data directory) and a session made on one works on all.
 * Read once at start-up, with async file calls.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { writeFileOnce } from "../write-once";

export const SECRET_FILE = "session-secret";
export const MIN_SECRET_LENGTH = 32;

export async function loadSessionSecret(fromEnv: string | undefined, dataDir: string): Promise<string> {
  if (fromEnv !== undefined && fromEnv !== "") {
    if (fromEnv.length < MIN_SECRET_LENGTH) {
      throw new Error(`BASEBOARD_SESSION_SECRET must be at least ${MIN_SECRET_LENGTH} characters (for example: openssl rand -base64 32).`);
    }
    return fromEnv;
  }
  const file = path.join(dataDir, SECRET_FILE);
  await fs.mkdir(dataDir, { recursive: true });
  await writeFileOnce(file, `${randomBytes(32).toString("base64url")}\n`, 0o600);
  const secret = (await fs.readFile(file, "utf8")).trim();
  if (secret.length < MIN_SECRET_LENGTH) throw new Error(`${file} holds a secret shorter than ${MIN_SECRET_LENGTH} characters: delete it to have a new one generated.`);
  return secret;
}

/**
 * `tsx src/server/service/storage/rotate-signing-key.ts [--data-dir D] [--retire ID]`
 * Rotates the signed-URL key pair in STORAGE_SIGNING_KEYS_FILE (default
 * DATA_DIR/storage-signing-keys.json); every running instance reading that file picks the change
 * up within a second. `--retire ID` retires an older pair so URLs signed with it stop working.
 */
import path from "node:path";
import { retireSigningKey, rotateSigningKey, SIGNING_KEYS_FILE } from "./domain/signing";

const argv = process.argv.slice(2);
const arg = (name: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const dataDir = path.resolve(arg("--data-dir") ?? process.env.DATA_DIR ?? ".data");
const file = path.resolve(process.env.STORAGE_SIGNING_KEYS_FILE || path.join(dataDir, SIGNING_KEYS_FILE));
const retire = arg("--retire");
if (retire) {
  retireSigningKey(file, retire);
  console.log(`Retired key pair ${retire}; URLs signed with it are now refused.`);
} else {
  console.log(`New active key pair ${rotateSigningKey(file)}; older pairs keep verifying until retired.`);
}

/**
 * `tsx src/server/service/storage/rotate-signing-key.ts [--data-dir D] [--retire ID]`
 * Rotates the signed-URL key pair (a running service picks the change up on its next request),
 * or retires an older pair so URLs signed with it stop working.
 */
import path from "node:path";
import { retireSigningKey, rotateSigningKey } from "./signing";

const argv = process.argv.slice(2);
const arg = (name: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const dataDir = path.resolve(arg("--data-dir") ?? process.env.DATA_DIR ?? ".data");
const retire = arg("--retire");
if (retire) {
  retireSigningKey(dataDir, retire);
  console.log(`Retired key pair ${retire}; URLs signed with it are now refused.`);
} else {
  console.log(`New active key pair ${rotateSigningKey(dataDir)}; older pairs keep verifying until retired.`);
}

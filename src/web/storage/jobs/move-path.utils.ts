/** What is wrong with a move, rename or copy's new path, in words (the dialog's check before sending). */
import { validateObjectKey } from "../../../shared/storage";

export function pathProblem(from: string, to: string): string | undefined {
  const folder = from.endsWith("/");
  if (to.trim() === "" && !folder) return "Give the file a name.";
  if (to.startsWith("/")) return "Paths start without /.";
  if (folder && to !== "" && !to.endsWith("/")) return "A folder's new path ends with /.";
  if (!folder && to.endsWith("/")) return "A file's new path ends with its name, not /.";
  if (to === from) return "That is where it is already.";
  if (folder && to.startsWith(from)) return "A folder cannot go inside itself.";
  // The key rules the service applies (no . or .. folders, no //, …), checked before sending.
  if (to !== "") {
    const key = validateObjectKey(folder ? `${to}x` : to);
    if (!key.ok) return key.error.message.replace(/^The object key/, "The new path");
  }
  return undefined;
}

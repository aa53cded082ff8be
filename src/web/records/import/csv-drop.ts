/** Drop handlers for the grid area: a CSV file dropped there opens the import preview. */
import { overlayActions } from "../overlays/overlay-store";

const hasFiles = (e: React.DragEvent) => [...e.dataTransfer.types].includes("Files");

export function csvDropHandlers(enabled: boolean) {
  if (!enabled) return {};
  return {
    onDragOver(e: React.DragEvent) {
      if (!hasFiles(e)) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = "copy";
      e.currentTarget.classList.add("drop-target");
    },
    onDragLeave(e: React.DragEvent) {
      if (!e.currentTarget.contains(e.relatedTarget as Node | null)) e.currentTarget.classList.remove("drop-target");
    },
    onDrop(e: React.DragEvent) {
      if (!hasFiles(e)) return;
      e.preventDefault();
      e.currentTarget.classList.remove("drop-target");
      const f = e.dataTransfer.files[0];
      if (f) overlayActions.importFile(f);
    },
  };
}

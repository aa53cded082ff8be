/**
 * Dragging entries of the listing onto a folder (a row, a card or a breadcrumb) to move them
 * there, as in a file manager (review 28b #13). The drop opens the same Move dialog as the
 * selection bar, its destination filled in, so nothing moves without a look and an Enter; the
 * keyboard's way is that dialog's own (Move to…). A dragged entry that is selected takes the
 * whole selection with it; one that is not goes alone.
 *
 * Files dropped from the desktop are the upload dropzone's: this only answers drags that carry
 * its own type, and the dropzone only those that carry files.
 */
import { useRef, useState } from "react";

const TYPE = "application/x-baseboard-entries";

/** What a drag from `id` takes: the selection when `id` is in it, else `id` alone. */
export function draggedIds(selected: ReadonlySet<string>, id: string): string[] {
  return selected.has(id) ? [...selected] : [id];
}

/** Whether `ids` may be dropped into `folder` ("a/b/", "" = the root): not into itself or one of its own folders, not where they all are. */
export function dropAccepted(ids: readonly string[], folder: string): boolean {
  const base = folder === "" || folder.endsWith("/") ? folder : `${folder}/`;
  if (ids.some((id) => id.endsWith("/") && base.startsWith(id))) return false;
  const parentOf = (id: string) => {
    const t = id.endsWith("/") ? id.slice(0, -1) : id;
    return t.slice(0, t.lastIndexOf("/") + 1);
  };
  return !ids.every((id) => parentOf(id) === base);
}

export interface DragToFolder {
  /** Whether entries can be dragged onto folders here at all. */
  enabled: boolean;
  /** Props for an entry that can be dragged. */
  source(id: string): React.HTMLAttributes<HTMLElement> & { draggable: boolean };
  /** Props for a folder that takes drops, and whether something is held over it. */
  target(folder: string): { props: React.HTMLAttributes<HTMLElement>; over: boolean };
}

export function useDragToFolder(selected: ReadonlySet<string>, onDrop: ((ids: string[], folder: string) => void) | undefined): DragToFolder {
  // The drag in hand: a dragover may not read the data, only its types.
  const dragging = useRef<string[] | null>(null);
  const [over, setOver] = useState<string | null>(null);
  const normal = (f: string) => (f === "" || f.endsWith("/") ? f : `${f}/`);
  const ours = (e: React.DragEvent) => dragging.current !== null && e.dataTransfer.types.includes(TYPE);
  return {
    enabled: !!onDrop,
    source: (id) =>
      !onDrop
        ? { draggable: false }
        : {
            draggable: true,
            onDragStart: (e) => {
              const ids = draggedIds(selected, id);
              dragging.current = ids;
              e.dataTransfer.setData(TYPE, JSON.stringify(ids));
              // Outside the page (a text editor) it is the keys, one per line.
              e.dataTransfer.setData("text/plain", ids.join("\n"));
              e.dataTransfer.effectAllowed = "move";
            },
            onDragEnd: () => {
              dragging.current = null;
              setOver(null);
            },
          },
    target: (folder) => {
      const f = normal(folder);
      const accept = (e: React.DragEvent) => {
        if (!ours(e) || !dropAccepted(dragging.current!, f)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = "move";
        if (over !== f) setOver(f);
      };
      return {
        over: over === f,
        props: !onDrop
          ? {}
          : {
              // A drop target cancels both (dragenter marks it at once; dragover repeats while held).
              onDragEnter: accept,
              onDragOver: accept,
              onDragLeave: (e) => {
                // Moving onto a child of the folder's row leaves the row too (with no relatedTarget
                // in Chromium): only a pointer outside its box has left it.
                const r = e.currentTarget.getBoundingClientRect();
                const inside = e.clientX > r.left && e.clientX < r.right && e.clientY > r.top && e.clientY < r.bottom;
                if (!inside) setOver((o) => (o === f ? null : o));
              },
              onDrop: (e) => {
                const ids = dragging.current;
                dragging.current = null;
                setOver(null);
                if (!ids || !e.dataTransfer.types.includes(TYPE) || !dropAccepted(ids, f)) return;
                e.preventDefault();
                e.stopPropagation();
                onDrop(ids, f);
              },
            },
      };
    },
  };
}

/**
 * Which sizes are kept (issue 9.3): only boxes whose sides are on a fixed ladder (or unset) are
 * cached, at most 48 variants per original; any other size is resized on demand and not kept, so
 * no stream of new sizes can fill the disk. The web app snaps what it asks for up to the ladder
 * (src/web/storage/thumb.utils.ts), so its thumbnails and previews hit the cache. Pure.
 */
import { RESIZE_LADDER } from "../../../../shared/storage";
import type { ResizeBox } from "./resize-params";

const onLadder = new Set<number>(RESIZE_LADDER);

export const isCacheable = (box: ResizeBox) => (box.w === 0 || onLadder.has(box.w)) && (box.h === 0 || onLadder.has(box.h));

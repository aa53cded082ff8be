/**
 * Room kept on the embedded trail's disk for outcomes (a ballast file beside audit.sqlite).
 *
 * Why: a change is recorded twice, its request before it is forwarded (fail closed) and its
 * outcome, with everything it overwrote (up to 10,000 Records' before-images), before the answer
 * goes back. On a nearly full disk the small request entry fits and the large outcome does not,
 * and by then the change is made. A change therefore starts only while this room is kept; an
 * outcome that does not fit is written into it (the file is removed first), and no change
 * starts again until the room can be kept anew (503: the disk is full).
 */
import fs from "node:fs";

export interface SpaceReserve {
  /** Keeps the room (writes the file when it is not there); false when the disk has no room for it. */
  ensure(): boolean;
  /** Gives the room back to the disk; false when none was kept. */
  release(): boolean;
}

const CHUNK = 64 * 1024;

export function openSpaceReserve(file: string, bytes: number): SpaceReserve {
  let held = bytes <= 0 || (fs.existsSync(file) && fs.statSync(file).size >= bytes);
  return {
    ensure() {
      if (held) return true;
      try {
        const fd = fs.openSync(file, "w");
        try {
          // Zeros written, not a sparse size: the blocks must really be taken.
          const zeros = Buffer.alloc(CHUNK);
          for (let n = 0; n < bytes; n += CHUNK) fs.writeSync(fd, zeros, 0, Math.min(CHUNK, bytes - n));
          fs.fsyncSync(fd);
        } finally {
          fs.closeSync(fd);
        }
        held = true;
      } catch {
        fs.rmSync(file, { force: true });
      }
      return held;
    },
    release() {
      if (!held || bytes <= 0) return false;
      fs.rmSync(file, { force: true });
      held = false;
      return true;
    },
  };
}

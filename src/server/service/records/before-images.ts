/**
 * The beforeImages extension's header (the audit trail's): an update or an import asking for
 * what it overwrites, of at most that many Records.
 */
import { BEFORE_IMAGES_HEADER, BEFORE_IMAGES_MAX } from "../../../shared/record-writes";
import { badRequest } from "../../http-error";

/** The before-images a request asks for (BEFORE_IMAGES_HEADER), or undefined when it asks for none. */
export function beforeImagesAsked(header: string | string[] | undefined): number | undefined {
  if (header === undefined) return undefined;
  const n = Number(header);
  if (typeof header !== "string" || !Number.isInteger(n) || n < 1 || n > BEFORE_IMAGES_MAX) {
    throw badRequest(`${BEFORE_IMAGES_HEADER}: send a whole number from 1 to ${BEFORE_IMAGES_MAX} (how many Records' before-images to return), or leave the header out.`);
  }
  return n;
}

/**
 * A lazily loaded thumbnail, requested at exactly the box it is drawn in times the device pixel
 * ratio. The versioned key is used when known: its URL is immutable, so the browser cache holds.
 */
import { useState } from "react";
import { fileKind, isVectorImage } from "../format.utils";
import { pixelBox, objectUrl } from "../thumb.utils";
import { FileIcon } from "./FileIcon";

export interface ThumbnailProps {
  bucket: string;
  name: string;
  objectKey: string;
  versionedKey?: string;
  contentType?: string;
  width: number;
  height: number;
}

export function Thumbnail({ bucket, name, objectKey, versionedKey, contentType, width, height }: ThumbnailProps) {
  const [failed, setFailed] = useState(false);
  const kind = fileKind(contentType, objectKey);
  if (kind !== "image" || failed) {
    return (
      <span className="st-thumb st-thumb-icon" style={{ width, height }}>
        <FileIcon name={name} contentType={contentType} size={Math.min(width, height, 64)} />
      </span>
    );
  }
  const box = isVectorImage(contentType, objectKey) ? undefined : pixelBox(width, height, typeof window === "undefined" ? 1 : window.devicePixelRatio);
  return (
    <span className="st-thumb" style={{ width, height }}>
      <img
        src={objectUrl(bucket, versionedKey ?? objectKey, box)}
        // The name is written beside every thumbnail: said once, not twice (axe: image-redundant-alt).
        alt=""
        loading="lazy"
        decoding="async"
        data-requested-width={box?.w}
        data-requested-height={box?.h}
        onError={() => setFailed(true)}
      />
    </span>
  );
}

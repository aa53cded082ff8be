/**
 * The images of the current folder view, one at a time, resized by the service to what the
 * viewport can show. Left/Right step through them, Escape closes (the native dialog's cancel).
 */
import type { Entry } from "../listing.utils";
import { lightboxBox, objectUrl } from "../thumb.utils";
import { type DeleteOffer, FileActions } from "../bucket-browser/FileActions";
import { useState } from "react";
import { formatBytes, isVectorImage, typeLabel } from "../format.utils";
import { FileIcon } from "./FileIcon";
import { Modal } from "../../ui/Dialog";
import { Icon } from "../../ui/icons";

type FileEntry = Extract<Entry, { kind: "file" }>;

export interface LightboxProps {
  bucket: string;
  images: FileEntry[];
  index: number;
  onIndex(i: number): void;
  onClose(): void;
  canDelete: DeleteOffer;
  onLink(e: FileEntry): void;
  onDelete(e: FileEntry): void;
}

export function Lightbox({ bucket, images, index, onIndex, onClose, canDelete, onLink, onDelete }: LightboxProps) {
  const img = images[index];
  if (!img) return null;
  const box = lightboxBox(window.innerWidth, window.innerHeight, window.devicePixelRatio);
  const vector = isVectorImage(img.contentType, img.key);
  const go = (d: number) => onIndex((index + d + images.length) % images.length);
  return (
    <Modal
      title={img.name}
      onClose={onClose}
      className="st-lightbox"
      onKeyDown={(e) => {
        if (e.key === "ArrowLeft") {
          e.preventDefault();
          go(-1);
        } else if (e.key === "ArrowRight") {
          e.preventDefault();
          go(1);
        }
      }}
      footer={
        <>
          <span className="st-muted">
            {index + 1} of {images.length} · {formatBytes(img.size)}
          </span>
          <FileActions bucket={bucket} entry={img} canDelete={canDelete} onLink={onLink} onDelete={onDelete} />
        </>
      }
    >
      <div className="st-lightbox-stage">
        <button type="button" className="st-nav-btn" aria-label="Previous image" onClick={() => go(-1)} disabled={images.length < 2}>
          <Icon name="left" size={28} />
        </button>
        <LightboxImage key={img.key} entry={img} src={objectUrl(bucket, img.versionedKey ?? img.key, vector ? undefined : box)} vector={vector} />
        <button type="button" className="st-nav-btn" aria-label="Next image" onClick={() => go(1)} disabled={images.length < 2}>
          <Icon name="right" size={28} />
        </button>
      </div>
    </Modal>
  );
}

/** A vector image is drawn at the full box (it stays sharp); a bitmap at most at its own size. */
function LightboxImage({ entry, src, vector }: { entry: FileEntry; src: string; vector: boolean }) {
  const [failed, setFailed] = useState(false);
  if (failed) {
    // TIFF, for one: the service resizes it, but browsers cannot draw it.
    return (
      <div className="st-no-preview st-lightbox-failed" role="status">
        <FileIcon name={entry.name} contentType={entry.contentType} size={96} />
        <p>This browser cannot show this image ({typeLabel(entry.contentType, entry.key)}). Use Download to open it.</p>
      </div>
    );
  }
  return <img className={`st-lightbox-img ${vector ? "st-lightbox-vector" : ""}`} src={src} alt={entry.name} onError={() => setFailed(true)} />;
}

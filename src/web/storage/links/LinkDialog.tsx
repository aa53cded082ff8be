/**
 * Share a file: a signed URL with a chosen lifetime (the upstream decides whether it can be
 * anything but 1 hour), and in a public bucket the plain public URL.
 */
import { useId, useState } from "react";
import type { ApiError } from "../../api-client";
import { toast } from "../../ui/toast";
import { DEFAULT_LIFETIME, LIFETIMES, describeExpiry, expiresFromUrl } from "../format.utils";
import { useSignUrlMutation } from "../object-sign-mutation";
import { publicUrl } from "../thumb.utils";
import { Modal } from "../../ui/Dialog";
import { Icon } from "../../ui/icons";

export interface LinkDialogProps {
  bucket: string;
  objectKey: string;
  /** The version on screen: what the signed URL names (the public URL always serves the latest). */
  versionedKey?: string;
  name: string;
  isPublic: boolean;
  lifetimeChoice: boolean;
  onClose(): void;
}

/** Clipboard where the page may use it (a secure context); otherwise the text stays selectable. */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

export function LinkDialog({ bucket, objectKey, versionedKey, name, isPublic, lifetimeChoice, onClose }: LinkDialogProps) {
  const [lifetime, setLifetime] = useState(DEFAULT_LIFETIME);
  const [signed, setSigned] = useState<{ url: string; expires: string } | null>(null);
  const sign = useSignUrlMutation(bucket);
  const ids = { lifetime: useId(), signed: useId(), pub: useId() };
  const pub = isPublic ? publicUrl(window.location.origin, bucket, objectKey) : null;

  const onSign = () => {
    const issuedAt = Date.now();
    sign.mutate(
      { key: versionedKey ?? objectKey, expiresIn: lifetimeChoice ? lifetime : undefined },
      {
        onSuccess: async (url) => {
          // The URL's own Expires is what the service will enforce; the chosen lifetime is only
          // what was asked for (an upstream without expiresIn gives 1 hour whatever was chosen).
          const expires = describeExpiry(lifetimeChoice ? lifetime : DEFAULT_LIFETIME, issuedAt, expiresFromUrl(url));
          setSigned({ url, expires });
          const copied = await copyText(url);
          // Without clipboard access (a page not served over https or localhost), the URL is
          // selected in its box so that Ctrl/⌘+C copies it.
          if (!copied) requestAnimationFrame(() => document.getElementById(ids.signed)?.focus());
          toast(copied ? "Signed URL copied" : "Signed URL ready: press Ctrl/⌘+C to copy it", {
            kind: "success",
            detail: `${name}. ${expires}.`,
          });
        },
        onError: (e) => toast("Could not sign the URL", { kind: "error", detail: (e as ApiError).message }),
      },
    );
  };

  return (
    <Modal title={`Share ${name}`} onClose={onClose} className="st-link-dialog">
      <section className="st-link-section">
        <h3>Signed URL</h3>
        <p className="st-muted">Anyone with this link can download the file until it expires.</p>
        <div className="st-row">
          <label htmlFor={ids.lifetime}>Expires after</label>
          <select id={ids.lifetime} className="input" value={lifetime} onChange={(e) => {
              setLifetime(Number(e.target.value));
              // The URL on screen was signed for the old lifetime: do not let it pass for the new one.
              setSigned(null);
            }} disabled={!lifetimeChoice}>
            {(lifetimeChoice ? LIFETIMES : LIFETIMES.filter((l) => l.seconds === DEFAULT_LIFETIME)).map((l) => (
              <option key={l.seconds} value={l.seconds}>
                {l.label}
              </option>
            ))}
          </select>
          <button type="button" className="btn btn-primary" onClick={onSign} disabled={sign.isPending} data-autofocus>
            <Icon name="copy" /> {sign.isPending ? "Signing…" : "Copy signed URL"}
          </button>
        </div>
        {!lifetimeChoice && <p className="st-note">The upstream issues links for 1 hour only (it has no expiresIn parameter).</p>}
        {signed && (
          <div className="st-url-box">
            <label htmlFor={ids.signed}>Signed URL</label>
            <input id={ids.signed} className="input" readOnly value={signed.url} onFocus={(e) => e.currentTarget.select()} />
            <p className="st-muted">{signed.expires}.</p>
          </div>
        )}
      </section>
      {pub && (
        <section className="st-link-section">
          <h3>Public URL</h3>
          <p className="st-muted">This bucket is public: no key is needed, the link does not expire, and it always serves the latest version.</p>
          <div className="st-row">
            <input id={ids.pub} className="input" readOnly value={pub} aria-label="Public URL" onFocus={(e) => e.currentTarget.select()} />
            <button
              type="button"
              className="btn"
              onClick={async () => {
                const ok = await copyText(pub);
                if (!ok) document.getElementById(ids.pub)?.focus();
                toast(ok ? "Public URL copied" : "Public URL selected: press Ctrl/⌘+C to copy it", { kind: ok ? "success" : "info", detail: name });
              }}
            >
              <Icon name="copy" /> Copy public URL
            </button>
          </div>
        </section>
      )}
    </Modal>
  );
}

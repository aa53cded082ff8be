/**
 * Where an export goes: straight to a file the user picks (File System Access API, Chromium),
 * or, elsewhere, into a Blob that is downloaded at the end. Both take chunks as they come.
 */
export interface FileSink {
  write(chunk: ArrayBuffer): Promise<void>;
  close(): Promise<void>;
  abort(): Promise<void>;
  /** "file" streams to disk; "download" holds the chunks until close. */
  kind: "file" | "download";
}

interface SavePickerWindow {
  showSaveFilePicker?(opts: { suggestedName: string; types: { description: string; accept: Record<string, string[]> }[] }): Promise<{
    createWritable(): Promise<{ write(d: ArrayBuffer): Promise<void>; close(): Promise<void>; abort(): Promise<void> }>;
  }>;
}

/** Resolves to null when the user cancels the file picker. Call it in the click handler (user gesture). */
export async function openSink(name: string, mime: string): Promise<FileSink | null> {
  const w = window as unknown as SavePickerWindow;
  if (typeof w.showSaveFilePicker === "function") {
    try {
      const ext = name.slice(name.lastIndexOf("."));
      const handle = await w.showSaveFilePicker({ suggestedName: name, types: [{ description: ext.slice(1).toUpperCase(), accept: { [mime]: [ext] } }] });
      const out = await handle.createWritable();
      return { kind: "file", write: (c) => out.write(c), close: () => out.close(), abort: () => out.abort() };
    } catch (e) {
      if ((e as DOMException).name === "AbortError") return null;
      // Not allowed here (an iframe, a policy): fall back to a download.
    }
  }
  const parts: ArrayBuffer[] = [];
  return {
    kind: "download",
    write: async (c) => {
      parts.push(c);
    },
    close: async () => {
      const url = URL.createObjectURL(new Blob(parts, { type: mime }));
      const a = document.createElement("a");
      a.href = url;
      a.download = name;
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    },
    abort: async () => {
      parts.length = 0;
    },
  };
}

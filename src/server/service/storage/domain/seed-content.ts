/**
 * Sample content generated at seed time (decisions §2), so no binary is committed: catalog
 * pictures drawn as SVG and rendered by sharp, and a small hand-built PDF.
 */
import { loadSharp } from "./resizer";

interface Picture {
  label: string;
  from: string;
  to: string;
  /** SVG elements drawn on the 800×600 canvas. */
  art: string;
}

const pictures: Record<string, Picture> = {
  lamp: {
    label: "Lamp",
    from: "#fff4d6",
    to: "#f6c26b",
    art: `<circle cx="400" cy="250" r="190" fill="#fff7c2" opacity="0.55"/>
      <path d="M300 140 L500 140 L560 290 L240 290 Z" fill="#e0703a"/>
      <rect x="392" y="290" width="16" height="180" fill="#5b4636"/>
      <ellipse cx="400" cy="480" rx="110" ry="22" fill="#5b4636"/>`,
  },
  chair: {
    label: "Chair",
    from: "#e3f1ff",
    to: "#8fb8e8",
    art: `<rect x="300" y="110" width="200" height="190" rx="18" fill="#3a6ea5"/>
      <rect x="270" y="300" width="260" height="40" rx="10" fill="#2c5684"/>
      <rect x="285" y="340" width="18" height="150" fill="#22405f"/>
      <rect x="497" y="340" width="18" height="150" fill="#22405f"/>`,
  },
  desk: {
    label: "Desk",
    from: "#f3eadf",
    to: "#c9a27e",
    art: `<rect x="140" y="200" width="520" height="36" rx="6" fill="#7a4b2a"/>
      <rect x="160" y="236" width="22" height="250" fill="#5e381e"/>
      <rect x="618" y="236" width="22" height="250" fill="#5e381e"/>
      <rect x="440" y="236" width="178" height="120" fill="#8d5a34"/>
      <rect x="505" y="288" width="50" height="10" rx="5" fill="#e8d3b9"/>
      <rect x="250" y="120" width="140" height="80" rx="6" fill="#2f3b4a"/>`,
  },
  shelf: {
    label: "Shelf",
    from: "#eef6ea",
    to: "#9fc69a",
    art: `<rect x="230" y="80" width="340" height="420" fill="none" stroke="#4c3b2a" stroke-width="16"/>
      <rect x="230" y="215" width="340" height="12" fill="#4c3b2a"/>
      <rect x="230" y="355" width="340" height="12" fill="#4c3b2a"/>
      <rect x="255" y="130" width="28" height="85" fill="#c0392b"/><rect x="288" y="120" width="24" height="95" fill="#2980b9"/>
      <rect x="318" y="140" width="30" height="75" fill="#f1c40f"/><rect x="420" y="270" width="26" height="85" fill="#8e44ad"/>
      <rect x="452" y="260" width="30" height="95" fill="#16a085"/><rect x="300" y="420" width="120" height="72" fill="#d35400"/>`,
  },
  plant: {
    label: "Plant",
    from: "#e9f8ee",
    to: "#6cc28a",
    art: `<ellipse cx="340" cy="230" rx="60" ry="130" fill="#2e8b57" transform="rotate(-30 340 230)"/>
      <ellipse cx="460" cy="230" rx="60" ry="130" fill="#3aa76d" transform="rotate(30 460 230)"/>
      <ellipse cx="400" cy="200" rx="50" ry="140" fill="#257a4a"/>
      <path d="M310 340 L490 340 L460 500 L340 500 Z" fill="#c8643b"/>`,
  },
  clock: {
    label: "Clock",
    from: "#f2eefc",
    to: "#a99be0",
    art: `<circle cx="400" cy="280" r="190" fill="#fdfcff" stroke="#3d3466" stroke-width="18"/>
      ${Array.from({ length: 12 }, (_, i) => `<rect x="396" y="104" width="8" height="28" fill="#3d3466" transform="rotate(${i * 30} 400 280)"/>`).join("")}
      <rect x="394" y="170" width="12" height="115" rx="6" fill="#3d3466" transform="rotate(-50 400 280)"/>
      <rect x="396" y="130" width="8" height="155" rx="4" fill="#6a5acd" transform="rotate(70 400 280)"/>
      <circle cx="400" cy="280" r="14" fill="#3d3466"/>`,
  },
};


function svg(width: number, height: number, from: string, to: string, art: string, label: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 800 600" preserveAspectRatio="xMidYMid slice">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
    <rect width="800" height="600" fill="url(#g)"/>
    ${art}
    <text x="400" y="560" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-size="42" font-weight="bold" fill="#1f2430" text-anchor="middle">${label}</text>
  </svg>`;
}

export async function catalogPicture(name: string, format: "png" | "jpeg"): Promise<Buffer> {
  const p = pictures[name];
  const sharp = await loadSharp();
  const image = sharp(Buffer.from(svg(800, 600, p.from, p.to, p.art, p.label)));
  return format === "png" ? image.png({ compressionLevel: 9 }).toBuffer() : image.jpeg({ quality: 85 }).toBuffer();
}

/** A picture of any size: gradient, a few translucent circles, a centred label. */
export async function banner(width: number, height: number, label: string, from: string, to: string, format: "png" | "jpeg"): Promise<Buffer> {
  const r = Math.min(width, height);
  const sharp = await loadSharp();
  const image = sharp(
    Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
      <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
      <rect width="${width}" height="${height}" fill="url(#g)"/>
      <circle cx="${width * 0.15}" cy="${height * 0.3}" r="${r * 0.22}" fill="#ffffff" opacity="0.35"/>
      <circle cx="${width * 0.82}" cy="${height * 0.75}" r="${r * 0.3}" fill="#ffffff" opacity="0.25"/>
      <circle cx="${width * 0.65}" cy="${height * 0.22}" r="${r * 0.1}" fill="#ffffff" opacity="0.3"/>
      <text x="${width / 2}" y="${height / 2 + r * 0.04}" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-size="${Math.round(r * 0.12)}" font-weight="bold" fill="#1f2430" text-anchor="middle">${label}</text>
    </svg>`),
  );
  return format === "png" ? image.png().toBuffer() : image.jpeg({ quality: 85 }).toBuffer();
}

export const logoSvg = `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="64" viewBox="0 0 240 64">
  <rect x="4" y="8" width="48" height="48" rx="10" fill="#3a6ea5"/><rect x="16" y="20" width="24" height="6" fill="#fff"/>
  <rect x="16" y="30" width="24" height="6" fill="#fff"/><rect x="16" y="40" width="24" height="6" fill="#fff"/>
  <text x="64" y="42" font-family="sans-serif" font-size="28" fill="#1f2430">Baseboard</text>
</svg>
`;

/** A small valid PDF (one page of text) with a correct cross-reference table. */
export function samplePdf(title: string, lines: string[]): Buffer {
  const esc = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);
  const text = [`BT /F1 22 Tf 72 760 Td (${esc(title)}) Tj ET`, ...lines.map((l, i) => `BT /F1 12 Tf 72 ${720 - i * 18} Td (${esc(l)}) Tj ET`)].join("\n");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${Buffer.byteLength(text, "latin1")} >>\nstream\n${text}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, "latin1"));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, "latin1");
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

/**
 * A session's browser as people name it ("Chrome 150 on Linux"), from its User-Agent (review 39b
 * #4: the raw string, cut off, looked the same for every Chrome). The full string stays in a
 * tooltip. Pure; unknown strings are given back as they are.
 */
const BROWSERS: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\/(\d+)/, "Edge"],
  [/\bOPR\/(\d+)/, "Opera"],
  [/\bFirefox\/(\d+)/, "Firefox"],
  [/\bFxiOS\/(\d+)/, "Firefox"],
  [/\bCriOS\/(\d+)/, "Chrome"],
  [/\b(?:Headless)?Chrom(?:e|ium)\/(\d+)/, "Chrome"],
  [/\bVersion\/(\d+)[.\d]* (?:Mobile\/\S+ )?Safari\//, "Safari"],
  [/\bcurl\/(\d+)/, "curl"],
  [/\bnode(?:-fetch)?\/?(\d*)/i, "Node.js"],
];
const SYSTEMS: [RegExp, string][] = [
  [/\b(?:iPhone|iPad|iPod)\b/, "iOS"],
  [/\bAndroid\b/, "Android"],
  [/\bWindows\b/, "Windows"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bLinux\b/, "Linux"],
];

export function browserOf(userAgent: string): string {
  const browser = BROWSERS.find(([re]) => re.test(userAgent));
  if (!browser) return userAgent || "unknown";
  const version = browser[0].exec(userAgent)?.[1];
  const system = SYSTEMS.find(([re]) => re.test(userAgent))?.[1];
  return `${browser[1]}${version ? ` ${version}` : ""}${system ? ` on ${system}` : ""}`;
}

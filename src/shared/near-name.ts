/**
 * The known name a mistyped one most likely meant ("full_nam" → "full_name"), for messages that
 * say what to fix (review 39b #7: an import named only the wrong header). Pure.
 */

/** Edit distance (insert, delete, replace, or swap two neighbours), compared without case. */
function distance(a: string, b: string): number {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  const d: number[][] = Array.from({ length: x.length + 1 }, (_, i) => [i, ...Array<number>(y.length).fill(0)]);
  for (let j = 1; j <= y.length; j++) d[0][j] = j;
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[x.length][y.length];
}

/** The nearest of `names` within a few edits (a quarter of its length, at least 1), else undefined. */
export function nearestName(name: string, names: readonly string[]): string | undefined {
  if (name.length > 200) return undefined;
  let best: string | undefined;
  let bestD = Math.max(1, Math.floor(name.length / 4)) + 1;
  for (const n of names) {
    const dd = distance(name, n);
    if (dd < bestD) [best, bestD] = [n, dd];
  }
  return best;
}

/** ` (did you mean "x"?)` when a near name is known, else "". */
export const didYouMean = (name: string, names: readonly string[]): string => {
  const near = nearestName(name, names);
  return near === undefined ? "" : ` (did you mean "${near}"?)`;
};

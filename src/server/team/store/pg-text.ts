/**
 * What PostgreSQL cannot hold, made so it can (pure). Its text cannot hold U+0000, and json or
 * jsonb refuses both the \u0000 escape and a lone surrogate half (`\ud83d`, which JSON.stringify
 * writes for ill-formed UTF-16). A NUL in a refused request's key left the refusal unrecorded, and
 * a lone surrogate in a change's value lost its live event for everyone (review 28a #2, #4). NUL
 * is kept as ␀ (U+2400), a lone half as U+FFFD, before anything is hashed or published, so a
 * stored entry still verifies as written. The embedded stores keep both as they are.
 */
export const NUL_SIGN = "\u2400";

/** Text as PostgreSQL can store it. */
export function pgText(s: string): string {
  return /[\0\p{Cs}]/u.test(s) ? s.replaceAll("\0", NUL_SIGN).replace(/\p{Cs}/gu, "\ufffd") : s;
}

/** JSON text (as JSON.stringify writes it) as json/jsonb can hold it: only true escapes are read, not an escaped backslash before "u0000". */
export function pgJsonText(text: string): string {
  if (!/\\u(0000|d[89a-f])/.test(text)) return text;
  return text.replace(/(?<!\\)((?:\\\\)*)\\u(0000|d[89a-f][0-9a-f]{2})/g, (_m, slashes: string, code: string) => `${slashes}${code === "0000" ? NUL_SIGN : "\ufffd"}`);
}

/** The login page: one self-contained HTML document, no script, values escaped. */

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

/** Said above the form when the app sent the tab here because its session had ended (`reason=ended`). */
export const LOGIN_ENDED_NOTICE = "Your session ended: you logged out in another tab, or it was not used for a while. Log in again to go back to where you were.";

export function loginPage(opts: { error?: string; next?: string; notice?: string }): string {
  const error = opts.error ? `<p class="error" role="alert">${escape(opts.error)}</p>` : opts.notice ? `<p class="notice" role="status">${escape(opts.notice)}</p>` : "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Log in · Baseboard</title>
<style>
  body { font: 15px/1.5 system-ui, sans-serif; background: #f4f5f7; color: #1d2330; display: grid; place-items: center; min-height: 100vh; margin: 0; }
  form { background: #fff; padding: 2rem; border-radius: 10px; box-shadow: 0 2px 12px rgb(0 0 0 / 0.08); width: min(22rem, 90vw); }
  h1 { font-size: 1.25rem; margin: 0 0 1rem; }
  label { display: block; font-weight: 600; margin-bottom: 0.25rem; }
  input { width: 100%; box-sizing: border-box; padding: 0.5rem; font: inherit; border: 1px solid #c5c9d2; border-radius: 6px; }
  button { margin-top: 1rem; width: 100%; padding: 0.55rem; font: inherit; font-weight: 600; color: #fff; background: #2f5bd3; border: 0; border-radius: 6px; cursor: pointer; }
  .error { color: #b42318; margin: 0 0 1rem; }
  .notice { background: #fff4e5; border: 1px solid #f3c58b; color: #5c2c00; padding: 0.5rem 0.75rem; border-radius: 6px; margin: 0 0 1rem; }
</style>
</head>
<body>
<form method="post" action="/login">
  <h1>Baseboard</h1>
  ${error}
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required autofocus>
  <input type="hidden" name="next" value="${escape(opts.next ?? "/")}">
  <button type="submit">Log in</button>
</form>
</body>
</html>
`;
}

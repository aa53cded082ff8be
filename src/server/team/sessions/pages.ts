/** The sign-in and set-password pages: self-contained HTML, no script, every value escaped. */

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} · Baseboard</title>
<style>
  body { font: 15px/1.5 system-ui, sans-serif; background: #f4f5f7; color: #1d2330; display: grid; place-items: center; min-height: 100vh; margin: 0; }
  main { background: #fff; padding: 2rem; border-radius: 10px; box-shadow: 0 2px 12px rgb(0 0 0 / 0.08); width: min(24rem, 90vw); }
  h1 { font-size: 1.25rem; margin: 0 0 1rem; }
  label { display: block; font-weight: 600; margin: 0.75rem 0 0.25rem; }
  input { width: 100%; box-sizing: border-box; padding: 0.5rem; font: inherit; border: 1px solid #767b86; border-radius: 6px; }
  input:focus-visible, button:focus-visible, a:focus-visible { outline: 3px solid #1d4ed8; outline-offset: 2px; }
  button, .button { display: block; text-align: center; text-decoration: none; margin-top: 1.25rem; width: 100%; box-sizing: border-box; padding: 0.55rem; font: inherit; font-weight: 600; color: #fff; background: #2548b8; border: 0; border-radius: 6px; cursor: pointer; }
  .secondary { background: #fff; color: #2548b8; border: 1px solid #2548b8; }
  .error { color: #a4160b; margin: 0 0 0.5rem; }
  .notice { background: #eef2fb; border-left: 3px solid #2548b8; padding: 0.5rem 0.75rem; margin: 0 0 0.75rem; }
  .hint { color: #4a5060; font-size: 0.85rem; margin: 0.25rem 0 0; }
  .or { text-align: center; color: #4a5060; margin: 1rem 0 0; }
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

const errorLine = (error?: string) => (error ? `<p class="error" role="alert">${escape(error)}</p>` : "");

/** Why the sign-in page was shown to someone who was signed in (`?reason=ended`). */
export const SESSION_ENDED_NOTICE =
  "Your session ended: you were signed out in another tab, by an admin (a password reset, a role or access change), or after a time without use. Sign in again to go back to where you were; if your password no longer works, an admin may have reset it: ask them for the link to set a new one.";

export function signInPage(opts: { error?: string; notice?: string; next?: string; email?: string; sso?: { label: string } }): string {
  const sso = opts.sso
    ? `<p class="or">or</p><a class="button secondary" href="/auth/oidc/start?next=${encodeURIComponent(opts.next ?? "/")}">Sign in with ${escape(opts.sso.label)}</a>`
    : "";
  return page(
    "Sign in",
    `<form method="post" action="/login">
  <h1>Sign in to Baseboard</h1>
  ${opts.notice && !opts.error ? `<p class="notice" role="status">${escape(opts.notice)}</p>` : ""}
  ${errorLine(opts.error)}
  <!-- With the email kept (a wrong password), the cleared password field has the focus. -->
  <label for="email">Email</label>
  <input id="email" name="email" type="email" autocomplete="username" required${opts.email ? "" : " autofocus"} value="${escape(opts.email ?? "")}">
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required${opts.email ? " autofocus" : ""}>
  <input type="hidden" name="next" value="${escape(opts.next ?? "/")}">
  <button type="submit">Sign in</button>
</form>${sso}`,
  );
}

export function setPasswordPage(opts: { email: string; action: string; error?: string }): string {
  return page(
    "Set your password",
    `<form method="post" action="${escape(opts.action)}">
  <h1>Set your password</h1>
  <p>For <strong>${escape(opts.email)}</strong>. This link works once.</p>
  ${errorLine(opts.error)}
  <input type="email" name="email" value="${escape(opts.email)}" autocomplete="username" hidden readonly>
  <label for="password">New password</label>
  <input id="password" name="password" type="password" autocomplete="new-password" minlength="12" required autofocus aria-describedby="pw-hint">
  <p class="hint" id="pw-hint">At least 12 characters; not a very common password, not your email's name, not one character over and over.</p>
  <label for="confirm">Repeat it</label>
  <input id="confirm" name="confirm" type="password" autocomplete="new-password" minlength="12" required>
  <button type="submit">Set password and sign in</button>
</form>`,
  );
}

export function messagePage(title: string, message: string): string {
  return page(title, `<h1>${escape(title)}</h1><p>${escape(message)}</p><a class="button" href="/login">Go to sign in</a>`);
}

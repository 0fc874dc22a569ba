/**
 * Where to go after sign-in (issue 16 "Honest errors": the user lands on the page they asked
 * for). Only a same-origin relative path is honoured — it starts with one "/" (not "//" or "/\",
 * which browsers read as another host) and has no control characters; anything else is "/"
 * (spec §2 /login: "On success goes to /").
 */
export function safeNextPath(next: string | null | undefined): string {
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return "/";
  // eslint-disable-next-line no-control-regex -- rejecting control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(next)) return "/";
  return next;
}

/** The /login URL that brings the visitor back to `path` (with its query) after signing in. */
export function loginPathFor(path: string): string {
  const target = safeNextPath(path);
  return target === "/" ? "/login" : `/login?next=${encodeURIComponent(target)}`;
}

/**
 * System Information card — spec §2 /settings, §9 version 1.0.0. The build date comes from a
 * `VITE_BUILD_DATE` variable when the build defines one, else from the page's last-modified date
 * (the server sends index.html's modification time, written by the build).
 */

/** §9 application version. */
export const APP_VERSION = "1.0.0";

/** Build date as an en-US calendar date, or 'Unknown' when neither source is a valid date. */
export function buildDateLabel(defined: unknown, lastModified: string | undefined): string {
  for (const candidate of [defined, lastModified]) {
    if (typeof candidate !== "string" || candidate.trim() === "") continue;
    const date = new Date(candidate);
    if (!Number.isNaN(date.getTime())) return date.toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric" });
  }
  return "Unknown";
}

/** §2 environment label: 'Production' for a production build, 'Development' otherwise. */
export function environmentLabel(production: boolean): string {
  return production ? "Production" : "Development";
}

/**
 * File downloads from the API (audit log export, trade export): fetched with the §7 credentials
 * (Bearer token, cookies) and saved under the server's file name (`content-disposition`).
 */
import { ApiError } from "@/lib/api-client";
import { getAuthToken } from "@/lib/storage";

/** The file name of a `content-disposition: attachment; filename="…"` header, or `fallback`. */
export function filenameFromDisposition(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const encoded = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(header);
  if (encoded?.[1]) {
    try {
      return decodeURIComponent(encoded[1].trim().replace(/^"|"$/g, ""));
    } catch {
      // Malformed encoding: try the plain parameter.
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/i.exec(header);
  const name = (plain?.[2] ?? plain?.[1] ?? "").trim();
  return name || fallback;
}

/** GETs `url` and saves the answer as a file; resolves with its name. Throws `ApiError` (`status: body`) on a non-2xx answer. */
export async function downloadFile(url: string, fallbackName: string): Promise<string> {
  const token = getAuthToken();
  const res = await fetch(url, { headers: token ? { Authorization: `Bearer ${token}` } : {}, credentials: "include" });
  if (!res.ok) throw new ApiError(res.status, (await res.text()) || res.statusText);
  const filename = filenameFromDisposition(res.headers.get("content-disposition"), fallbackName);
  const objectUrl = URL.createObjectURL(await res.blob());
  try {
    const link = document.createElement("a");
    link.href = objectUrl;
    link.download = filename;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // Let the browser start the download before the blob goes away.
    setTimeout(() => URL.revokeObjectURL(objectUrl), 1000);
  }
  return filename;
}

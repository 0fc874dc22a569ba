/** Issue 10: what a MetaTrader terminal needs to know about this server's address. */

/** Where the Expert Advisor zip is served (server/features/downloads). */
export const EA_DOWNLOAD_URL = "/downloads/copybridge-ea.zip";

const LOCAL_HOSTS = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/**
 * Warnings about `origin` (e.g. window.location.origin) as the URL terminals are told to allow:
 * plain HTTP (HTTPS is required in production), a port other than the scheme's (MetaTrader's
 * WebRequest uses 80 for http:// and 443 for https://), and a loopback host (only a terminal on
 * the same computer reaches it). Empty when the URL is fit for remote terminals; [] for an
 * unparsable origin.
 */
export function serverUrlWarnings(origin: string): string[] {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return [];
  }
  const warnings: string[] = [];
  if (url.protocol !== "https:") {
    warnings.push("HTTPS is required in production: let the terminals reach this server through a TLS-terminating reverse proxy and allow its https:// address instead.");
  }
  if (url.port) {
    warnings.push(
      `MetaTrader's WebRequest uses port 80 for http:// and 443 for https://, so a URL with port ${url.port} may not reach this server: publish it on the standard port.`,
    );
  }
  if (LOCAL_HOSTS.test(url.hostname)) {
    warnings.push("This is a local address: only a terminal on this computer can reach it. Remote terminals need the server's public address.");
  }
  return warnings;
}

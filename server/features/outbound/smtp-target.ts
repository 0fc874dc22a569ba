/**
 * SMTP (email alerts) under the same address policy as every outgoing HTTP call: the SMTP_URL
 * host is resolved here and must be public unless allow-listed; nodemailer then connects to the
 * checked IP (so it cannot resolve the name again to something else) with the original name as
 * TLS servername. Failures become short reasons of our own, never the SMTP server's text.
 */
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import { parseConnectionUrl } from "nodemailer/lib/shared";
import { isAllowListed, type OutboundPolicy } from "./address-policy.ts";
import { OutboundError, reasonOf, resolveChecked } from "./outbound-http.ts";

/**
 * nodemailer transport options for `smtpUrl` (smtp:// or smtps://), host replaced by a checked
 * address. Throws an OutboundError with our reason when the URL or address is refused.
 */
export async function checkedSmtpOptions(smtpUrl: string, policy: OutboundPolicy): Promise<SMTPTransport.Options> {
  let hostname: string;
  try {
    hostname = new URL(smtpUrl).hostname.replace(/^\[|\]$/g, "");
  } catch {
    throw new OutboundError("EOUTBOUND_REFUSED", "SMTP_URL is not a valid URL");
  }
  if (!/^smtps?:\/\//i.test(smtpUrl) || !hostname) throw new OutboundError("EOUTBOUND_REFUSED", "SMTP_URL must be smtp:// or smtps://");
  const parsed = parseConnectionUrl(smtpUrl);
  const secure = parsed.secure === true;
  const port = parsed.port ?? (secure ? 465 : 587);
  let addresses;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new OutboundError("EOUTBOUND_TIMEOUT", "timed out")), policy.timeoutMs)));
  try {
    addresses = await Promise.race([resolveChecked(hostname, isAllowListed(policy, hostname, port)), deadline]);
  } catch (err) {
    throw new OutboundError("EOUTBOUND_REFUSED", reasonOf(err));
  } finally {
    clearTimeout(timer);
  }
  // Options a URL could smuggle in that would connect elsewhere are dropped.
  const { proxy: _proxy, host: _host, ...rest } = parsed as SMTPTransport.Options;
  void _proxy;
  void _host;
  return {
    ...rest,
    host: addresses[0]!.address,
    port,
    secure,
    tls: { ...rest.tls, servername: hostname },
    connectionTimeout: policy.timeoutMs,
    greetingTimeout: policy.timeoutMs,
    socketTimeout: policy.timeoutMs,
    dnsTimeout: policy.timeoutMs,
  };
}

/** Our own short reason for a nodemailer failure (its message may quote the server's reply). */
export function smtpReasonOf(err: unknown): string {
  if (err instanceof OutboundError) return err.message;
  const e = err as { code?: string; responseCode?: number } | null;
  if (e?.code === "EAUTH") return "SMTP server refused the login";
  if (e?.code === "ETIMEDOUT") return "timed out";
  if (typeof e?.responseCode === "number") return `SMTP server answered ${e.responseCode}`;
  if (e?.code === "ECONNECTION" || e?.code === "ESOCKET" || e?.code === "EDNS") return "could not connect to the SMTP server";
  return "SMTP delivery failed";
}

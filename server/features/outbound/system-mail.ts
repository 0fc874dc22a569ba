/**
 * Mail the server sends on its own behalf (password reset, invitations — issue 16), through the
 * server's SMTP (SMTP_URL, sender ALERT_FROM) under the same outbound address policy as alert
 * e-mails (smtp-target.ts), and the public origin their links point at.
 */
import nodemailer, { type Transporter } from "nodemailer";
import type { Config } from "../../config.ts";
import { checkedSmtpOptions, smtpReasonOf } from "./smtp-target.ts";

/**
 * The dashboard's public origin for links in e-mails: the first ALLOWED_ORIGINS entry, else
 * `http://HOST:<listening port>` (a wildcard HOST reads as localhost). Never a request's Host
 * header: a client could aim a reset or invitation link at a site of its own.
 */
export function publicOrigin(config: Pick<Config, "allowedOrigins" | "host" | "port">, listeningPort?: number): string {
  const configured = config.allowedOrigins[0];
  if (configured) return configured;
  const wildcard = config.host === "0.0.0.0" || config.host === "::" || config.host === "";
  const host = wildcard ? "localhost" : config.host.includes(":") ? `[${config.host}]` : config.host;
  return `http://${host}:${listeningPort ?? config.port}`;
}

export type SystemMailResult = { sent: true } | { sent: false; reason: string };

/**
 * Sends one plain-text e-mail. Never throws: `{ sent: false, reason }` carries our own short reason
 * ("SMTP_URL is not set", or smtpReasonOf's summary — never the SMTP server's text).
 */
export async function sendSystemMail(
  config: Pick<Config, "smtpUrl" | "alertFrom" | "outbound">,
  mail: { to: string; subject: string; text: string },
): Promise<SystemMailResult> {
  if (!config.smtpUrl) return { sent: false, reason: "SMTP_URL is not set" };
  let mailer: Transporter | null = null;
  try {
    mailer = nodemailer.createTransport(await checkedSmtpOptions(config.smtpUrl, config.outbound));
    await mailer.sendMail({ from: config.alertFrom, ...mail });
    return { sent: true };
  } catch (err) {
    return { sent: false, reason: smtpReasonOf(err) };
  } finally {
    mailer?.close();
  }
}

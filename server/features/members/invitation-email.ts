/**
 * The invitation link and its e-mail (issue 16 "Members and roles"). The link's origin comes from
 * configuration, never from a request's Host header (a client could aim it at a site of its
 * own): the first ALLOWED_ORIGINS entry — the dashboard's public address — or else the address
 * the server itself listens on. The e-mail goes through the server's SMTP (SMTP_URL, sender
 * ALERT_FROM) under the same outbound address policy as alert e-mails (features/outbound).
 */
import nodemailer, { type Transporter } from "nodemailer";
import { ROLE_LABELS, type Role } from "#contract";
import type { Config } from "../../config.ts";
import { checkedSmtpOptions, smtpReasonOf } from "../outbound/smtp-target.ts";

/** Path of the dashboard page that accepts an invitation (web: /accept-invitation). */
export const ACCEPT_PATH = "/accept-invitation";

/**
 * The dashboard's public origin: the first configured ALLOWED_ORIGINS entry, else
 * `http://HOST:<listening port>` (a wildcard HOST reads as localhost).
 */
export function publicOrigin(config: Pick<Config, "allowedOrigins" | "host" | "port">, listeningPort?: number): string {
  const configured = config.allowedOrigins[0];
  if (configured) return configured;
  const wildcard = config.host === "0.0.0.0" || config.host === "::" || config.host === "";
  const host = wildcard ? "localhost" : config.host.includes(":") ? `[${config.host}]` : config.host;
  return `http://${host}:${listeningPort ?? config.port}`;
}

/** The single-use link of an invitation token. */
export function invitationUrl(origin: string, token: string): string {
  return `${origin}${ACCEPT_PATH}?token=${encodeURIComponent(token)}`;
}

export interface InvitationMail {
  to: string;
  tenantName: string;
  inviterName: string;
  role: Role;
  url: string;
  expiresAt: Date;
}

/** Subject and plain-text body naming the organisation, the inviter, the role and the link. */
export function invitationMessage(m: InvitationMail): { subject: string; text: string } {
  const role = ROLE_LABELS[m.role];
  return {
    subject: `${m.inviterName} invited you to ${m.tenantName} on CopyBridge`,
    text: [
      `${m.inviterName} invited you to join ${m.tenantName} on CopyBridge as ${role}.`,
      "",
      "To accept, open this link and choose your password:",
      m.url,
      "",
      `The link works once and expires at ${m.expiresAt.toISOString().replace("T", " ").slice(0, 16)} UTC.`,
      "If you did not expect this invitation, ignore this e-mail.",
    ].join("\n"),
  };
}

/**
 * Sends the invitation. Resolves false when SMTP is not configured; throws an Error with our own
 * short reason (never the SMTP server's text) when sending fails.
 */
export async function sendInvitationMail(config: Pick<Config, "smtpUrl" | "alertFrom" | "outbound">, mail: InvitationMail): Promise<boolean> {
  if (!config.smtpUrl) return false;
  const { subject, text } = invitationMessage(mail);
  let mailer: Transporter | null = null;
  try {
    mailer = nodemailer.createTransport(await checkedSmtpOptions(config.smtpUrl, config.outbound));
    await mailer.sendMail({ from: config.alertFrom, to: mail.to, subject, text });
    return true;
  } catch (err) {
    throw new Error(smtpReasonOf(err));
  } finally {
    mailer?.close();
  }
}

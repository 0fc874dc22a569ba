/**
 * The invitation link and its e-mail (issue 16 "Members and roles"). The link's origin comes from
 * configuration, never from a request's Host header (a client could aim it at a site of its
 * own): the first ALLOWED_ORIGINS entry — the dashboard's public address — or else the address
 * the server itself listens on. The e-mail goes through the server's SMTP (SMTP_URL, sender
 * ALERT_FROM) under the same outbound address policy as alert e-mails (features/outbound).
 */
import { ROLE_LABELS, type Role } from "#contract";
import type { Config } from "../../config.ts";
import { sendSystemMail } from "../outbound/system-mail.ts";

/** Path of the dashboard page that accepts an invitation (web: /accept-invitation). */
export const ACCEPT_PATH = "/accept-invitation";

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
  const r = await sendSystemMail(config, { to: mail.to, ...invitationMessage(mail) });
  if (!r.sent) throw new Error(r.reason);
  return true;
}

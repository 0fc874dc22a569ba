/**
 * Real delivery of alert messages (spec §9 channels): Telegram through the Bot API `sendMessage`,
 * Discord through its webhook URL, email through SMTP (nodemailer, SMTP_URL / ALERT_FROM).
 * Each send throws a readable Error on failure (HTTP status and body excerpt, SMTP error); the
 * caller retries with backoff. Bodies are capped to each service's limit.
 */
import nodemailer, { type Transporter } from "nodemailer";
import type { AlertChannel, AlertChannels } from "#contract";
import type { Config } from "../../config.ts";

export interface AlertMessage {
  subject: string;
  text: string;
}

const TIMEOUT_MS = 10_000;

async function postJson(url: string, body: unknown): Promise<string> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`HTTP ${res.status}: ${text.slice(0, 200)}`);
  return text;
}

export class AlertChannelSender {
  private mailer: Transporter | null = null;

  constructor(private readonly config: Pick<Config, "telegramApiUrl" | "smtpUrl" | "alertFrom">) {}

  /** Sends one message through one configured channel; throws on failure. */
  async send(channel: AlertChannel, channels: AlertChannels, message: AlertMessage): Promise<void> {
    switch (channel) {
      case "telegram": {
        const t = channels.telegram;
        if (!t) throw new Error("Telegram is not configured for this alert");
        const body = await postJson(`${this.config.telegramApiUrl}/bot${encodeURIComponent(t.botToken)}/sendMessage`, {
          chat_id: t.chatId,
          text: `${message.subject}\n\n${message.text}`.slice(0, 4096),
          disable_web_page_preview: true,
        });
        const parsed = JSON.parse(body) as { ok?: boolean; description?: string };
        if (parsed.ok !== true) throw new Error(`Telegram refused: ${parsed.description ?? body.slice(0, 200)}`);
        return;
      }
      case "discord": {
        const d = channels.discord;
        if (!d) throw new Error("Discord is not configured for this alert");
        await postJson(d.webhookUrl, { content: `**${message.subject}**\n${message.text}`.slice(0, 2000) });
        return;
      }
      case "email": {
        const e = channels.email;
        if (!e || e.recipients.length === 0) throw new Error("Email is not configured for this alert");
        if (!this.config.smtpUrl) throw new Error("Email delivery needs SMTP_URL to be set on the server");
        this.mailer ??= nodemailer.createTransport(this.config.smtpUrl);
        await this.mailer.sendMail({ from: this.config.alertFrom, to: e.recipients, subject: message.subject, text: message.text });
        return;
      }
    }
  }

  close(): void {
    this.mailer?.close();
  }
}

/** The channels a configuration has set up, in a fixed order. */
export function configuredChannels(channels: AlertChannels): AlertChannel[] {
  return (["telegram", "discord", "email"] as const).filter((c) => channels[c] !== undefined);
}

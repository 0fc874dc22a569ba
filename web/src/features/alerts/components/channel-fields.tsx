import type { AlertChannel } from "#contract";
import { Mail, MessageCircle, Send } from "lucide-react";
import type { ReactNode } from "react";
import { FormField, fieldErrorId } from "@/components/form-field";
import { PasswordInput } from "@/components/password-input";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Switch } from "@/components/ui/switch";
import { Textarea } from "@/components/ui/textarea";
import type { AlertFormErrors, AlertFormField, ChannelForms } from "../lib/alert-form";
import { ALERT_CHANNEL_LABELS } from "../lib/alert-types";

const ICONS: Record<AlertChannel, typeof Send> = { telegram: Send, discord: MessageCircle, email: Mail };

export interface ChannelFieldsProps {
  channels: ChannelForms;
  errors: AlertFormErrors;
  onToggle: (channel: AlertChannel, on: boolean) => void;
  onChange: (channels: ChannelForms) => void;
  disabled?: boolean;
  /** A Telegram bot token is saved in Settings and a blank field uses it (create mode). */
  savedTelegramToken?: boolean;
}

function invalid(errors: AlertFormErrors, field: AlertFormField, id: string) {
  return errors[field] ? { "aria-invalid": true, "aria-describedby": fieldErrorId(id) } : {};
}

/** One channel: a switch in its header, its settings underneath while it is on (§4). */
function ChannelBox({ channel, on, onToggle, disabled, children }: { channel: AlertChannel; on: boolean; onToggle: (on: boolean) => void; disabled?: boolean; children: ReactNode }) {
  const Icon = ICONS[channel];
  const id = `channel-${channel}`;
  return (
    <div className="flex flex-col gap-3 rounded-md border p-3">
      <div className="flex items-center justify-between gap-3">
        <Label htmlFor={id} className="flex items-center gap-2">
          <Icon className="size-4 text-muted-foreground" aria-hidden="true" />
          {ALERT_CHANNEL_LABELS[channel]}
        </Label>
        <Switch id={id} checked={on} onCheckedChange={onToggle} disabled={disabled} data-testid={`switch-channel-${channel}`} />
      </div>
      {on ? children : null}
    </div>
  );
}

/** §2/§5 channels: telegram, discord and email, each with its own switch. */
export function ChannelFields({ channels, errors, onToggle, onChange, disabled, savedTelegramToken }: ChannelFieldsProps) {
  const { telegram, discord, email } = channels;
  return (
    <fieldset className="flex flex-col gap-3" disabled={disabled}>
      <legend className="mb-2 text-sm font-medium">Notification Channels</legend>
      <ChannelBox channel="telegram" on={Boolean(telegram)} onToggle={(on) => onToggle("telegram", on)} disabled={disabled}>
        {telegram ? (
          <>
            <FormField id="telegram-chat-id" label="Chat ID" error={errors["telegram.chatId"]}>
              <Input
                id="telegram-chat-id"
                autoComplete="off"
                spellCheck={false}
                placeholder="-1001234567890"
                value={telegram.chatId}
                onChange={(e) => onChange({ ...channels, telegram: { ...telegram, chatId: e.target.value } })}
                data-testid="input-telegram-chat-id"
                {...invalid(errors, "telegram.chatId", "telegram-chat-id")}
              />
            </FormField>
            <FormField
              id="telegram-bot-token"
              label="Bot Token"
              hint={savedTelegramToken ? "Leave blank to use the bot token saved in Settings" : undefined}
              error={errors["telegram.botToken"]}
            >
              <PasswordInput
                id="telegram-bot-token"
                autoComplete="off"
                spellCheck={false}
                placeholder={savedTelegramToken ? "Saved in Settings" : "123456:ABC-DEF..."}
                value={telegram.botToken}
                onChange={(e) => onChange({ ...channels, telegram: { ...telegram, botToken: e.target.value } })}
                data-testid="input-telegram-bot-token"
                toggleTestId="button-toggle-telegram-bot-token"
                {...invalid(errors, "telegram.botToken", "telegram-bot-token")}
              />
            </FormField>
          </>
        ) : null}
      </ChannelBox>
      <ChannelBox channel="discord" on={Boolean(discord)} onToggle={(on) => onToggle("discord", on)} disabled={disabled}>
        {discord ? (
          <FormField id="discord-webhook" label="Webhook URL" error={errors["discord.webhookUrl"]}>
            <Input
              id="discord-webhook"
              type="url"
              autoComplete="off"
              spellCheck={false}
              placeholder="https://discord.com/api/webhooks/..."
              value={discord.webhookUrl}
              onChange={(e) => onChange({ ...channels, discord: { webhookUrl: e.target.value } })}
              data-testid="input-discord-webhook"
              {...invalid(errors, "discord.webhookUrl", "discord-webhook")}
            />
          </FormField>
        ) : null}
      </ChannelBox>
      <ChannelBox channel="email" on={Boolean(email)} onToggle={(on) => onToggle("email", on)} disabled={disabled}>
        {email ? (
          <FormField id="email-recipients" label="Recipients" hint="One email address per line" error={errors["email.recipients"]}>
            <Textarea
              id="email-recipients"
              rows={3}
              spellCheck={false}
              placeholder={"alerts@example.com\nops@example.com"}
              value={email.recipients}
              onChange={(e) => onChange({ ...channels, email: { recipients: e.target.value } })}
              data-testid="textarea-email-recipients"
              {...invalid(errors, "email.recipients", "email-recipients")}
            />
          </FormField>
        ) : null}
      </ChannelBox>
    </fieldset>
  );
}

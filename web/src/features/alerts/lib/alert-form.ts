/**
 * Alert form state ⇄ request — spec §4 Alert configuration (create mode empty, edit mode
 * pre-filled; a channel switch on creates an empty settings object, off removes it), §5 Alert
 * form (Save needs name and type; threshold per type; recipients one per line, blank lines
 * dropped; rate limit an integer, default 300 s). The request is checked against the contract's
 * createAlertConfigRequestSchema, whose messages the server also returns.
 */
import {
  type AlertChannel,
  type AlertConfig,
  type AlertThresholds,
  type AlertType,
  type CreateAlertConfigRequest,
  DEFAULT_ALERT_RATE_LIMIT_S,
  type OrgSettings,
  createAlertConfigRequestSchema,
} from "#contract";
import { type NumberFieldSpec, numberFieldFor } from "./alert-types";

/** Channel settings as edited: email recipients stay text (one per line) until save. */
export interface ChannelForms {
  telegram?: { chatId: string; botToken: string };
  discord?: { webhookUrl: string };
  email?: { recipients: string };
}

export interface AlertFormValues {
  name: string;
  type: AlertType | "";
  /** The type's number field (threshold, or seconds for disconnect / missed trade) as typed. */
  threshold: string;
  channels: ChannelForms;
  rateLimit: string;
}

/** Fields an error can be shown on. */
export type AlertFormField =
  | "name"
  | "type"
  | "threshold"
  | "telegram.chatId"
  | "telegram.botToken"
  | "discord.webhookUrl"
  | "email.recipients"
  | "rateLimit"
  | "form";

export type AlertFormErrors = Partial<Record<AlertFormField, string>>;

/** Create mode: empty fields, §9 default rate limit. */
export function emptyAlertForm(): AlertFormValues {
  return { name: "", type: "", threshold: "", channels: {}, rateLimit: String(DEFAULT_ALERT_RATE_LIMIT_S) };
}

/**
 * Create mode started from the organisation's Settings (issue 16): the e-mail channel on with the
 * alert e-mails, the Telegram channel on with the chat id (its bot token left blank: the saved one
 * is used, the server never returns it). Without settings (not loaded yet): emptyAlertForm().
 */
export function alertFormFromSettings(settings: Pick<OrgSettings, "telegramChatId" | "alertEmails"> | undefined): AlertFormValues {
  const form = emptyAlertForm();
  if (!settings) return form;
  if (settings.telegramChatId !== "") form.channels.telegram = { chatId: settings.telegramChatId, botToken: "" };
  if (settings.alertEmails.length > 0) form.channels.email = { recipients: settings.alertEmails.join("\n") };
  return form;
}

/** Edit mode: the form pre-filled from a saved configuration. */
export function alertToForm(config: AlertConfig): AlertFormValues {
  const spec = numberFieldFor(config.type);
  const amount = spec ? config.thresholds[spec.field] : null;
  const { telegram, discord, email } = config.channels;
  const channels: ChannelForms = {};
  if (telegram) channels.telegram = { ...telegram };
  if (discord) channels.discord = { ...discord };
  if (email) channels.email = { recipients: email.recipients.join("\n") };
  return {
    name: config.name,
    type: config.type,
    threshold: amount === null || amount === undefined ? "" : String(amount),
    channels,
    rateLimit: String(config.rateLimit),
  };
}

/** §4: switching a channel on adds its empty settings object; off removes it. */
export function setChannel(channels: ChannelForms, channel: AlertChannel, on: boolean): ChannelForms {
  const next = { ...channels };
  if (!on) {
    delete next[channel];
    return next;
  }
  if (next[channel]) return next;
  switch (channel) {
    case "telegram":
      next.telegram = { chatId: "", botToken: "" };
      break;
    case "discord":
      next.discord = { webhookUrl: "" };
      break;
    case "email":
      next.email = { recipients: "" };
      break;
  }
  return next;
}

/** §5: one recipient per line, trimmed, blank lines dropped. */
export function parseRecipients(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

/** §5: Save is disabled until both name and type are set. */
export function canSave(values: AlertFormValues): boolean {
  return values.name.trim().length > 0 && values.type !== "";
}

const INTEGER_RE = /^\d+$/;
const DECIMAL_RE = /^(\d+(\.\d*)?|\.\d+)$/;

/** Typed number of `spec`: null when blank, a message when invalid. */
export function parseNumberField(text: string, spec: NumberFieldSpec): { value: number | null } | { error: string } {
  const trimmed = text.trim();
  if (trimmed === "") return { value: null };
  const negative = trimmed.startsWith("-") && DECIMAL_RE.test(trimmed.slice(1));
  if (negative) return { error: "Must not be negative" };
  if (spec.integer ? !INTEGER_RE.test(trimmed) : !DECIMAL_RE.test(trimmed)) {
    return { error: spec.integer ? "Must be a whole number" : "Must be a number" };
  }
  const value = Number(trimmed);
  if (value < spec.min) return { error: `Must be at least ${spec.min}` };
  if (spec.max !== undefined && value > spec.max) return { error: `Must be at most ${spec.max}` };
  return { value };
}

/** Form field showing a contract issue at `path` ("channels.email.recipients.2", or its parts). */
export function fieldForIssuePath(path: string | readonly PropertyKey[]): AlertFormField {
  const parts = typeof path === "string" ? path.split(/[.[\]]+/).filter(Boolean) : path.map(String);
  const [head, second, third] = parts;
  if (head === "name" || head === "type" || head === "rateLimit") return head;
  if (head === "thresholds") return "threshold";
  if (head === "channels") {
    const key = `${second}.${third}`;
    if (key === "telegram.chatId" || key === "telegram.botToken" || key === "discord.webhookUrl" || key === "email.recipients") return key;
  }
  return "form";
}

/** Issues as field errors; the first message of a field wins. */
/** A server issue (dotted path) or a zod issue (path array). */
type IssueLike = { path: string | readonly PropertyKey[]; message: string };

export function issuesToErrors(issues: readonly IssueLike[]): AlertFormErrors {
  const errors: AlertFormErrors = {};
  for (const issue of issues) {
    const field = fieldForIssuePath(issue.path);
    errors[field] ??= issue.message;
  }
  return errors;
}

function thresholdsOf(type: AlertType, amount: number | null): AlertThresholds {
  const spec = numberFieldFor(type);
  return spec && amount !== null ? { [spec.field]: amount } : {};
}

/** The contract's upper bound of rateLimit (7 days). */
const MAX_RATE_LIMIT_S = 604_800;

function parseRateLimit(text: string): { value: number } | { error: string } {
  const trimmed = text.trim();
  if (trimmed === "") return { error: "Rate limit is required" };
  if (!INTEGER_RE.test(trimmed)) return { error: trimmed.startsWith("-") ? "Rate limit must not be negative" : "Rate limit must be a whole number" };
  const value = Number(trimmed);
  if (value > MAX_RATE_LIMIT_S) return { error: `Rate limit must be at most ${MAX_RATE_LIMIT_S} seconds (7 days)` };
  return { value };
}

export type AlertRequestResult = { ok: true; request: CreateAlertConfigRequest } | { ok: false; errors: AlertFormErrors };

/**
 * Validates the form and builds the request body (POST, or PUT replacing every edited field).
 * Thresholds hold only the selected type's field; channels only the switched-on ones. With
 * `savedTelegramToken` (create mode, a token saved in Settings) a blank bot token is sent blank.
 */
export function toAlertRequest(values: AlertFormValues, options: { savedTelegramToken?: boolean } = {}): AlertRequestResult {
  const errors: AlertFormErrors = {};
  if (values.type === "") errors.type = "Type is required";
  const spec = values.type === "" ? null : numberFieldFor(values.type);
  const amount = spec ? parseNumberField(values.threshold, spec) : { value: null };
  if ("error" in amount) errors.threshold = amount.error;
  const rateLimit = parseRateLimit(values.rateLimit);
  if ("error" in rateLimit) errors.rateLimit = rateLimit.error;

  const { telegram, discord, email } = values.channels;
  const candidate = {
    name: values.name,
    type: values.type,
    thresholds: values.type !== "" && "value" in amount ? thresholdsOf(values.type, amount.value) : {},
    channels: {
      ...(telegram ? { telegram: { chatId: telegram.chatId.trim(), botToken: telegram.botToken.trim() } } : {}),
      ...(discord ? { discord: { webhookUrl: discord.webhookUrl.trim() } } : {}),
      ...(email ? { email: { recipients: parseRecipients(email.recipients) } } : {}),
    },
    rateLimit: "value" in rateLimit ? rateLimit.value : DEFAULT_ALERT_RATE_LIMIT_S,
  };
  // A blank bot token with one saved in Settings: the server fills it in (POST only).
  const useSavedToken = options.savedTelegramToken === true && candidate.channels.telegram?.botToken === "";
  const checked = useSavedToken && candidate.channels.telegram ? { ...candidate, channels: { ...candidate.channels, telegram: { ...candidate.channels.telegram, botToken: "saved" } } } : candidate;
  const parsed = createAlertConfigRequestSchema.safeParse(checked);
  if (!parsed.success) {
    for (const [field, message] of Object.entries(issuesToErrors(parsed.error.issues))) {
      errors[field as AlertFormField] ??= message;
    }
  }
  if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, errors };
  const { enabled: _enabled, ...request } = parsed.data;
  if (useSavedToken && request.channels.telegram) request.channels.telegram.botToken = "";
  return { ok: true, request };
}


/**
 * The Data retention card's form (issue 15): two whole-day fields validated with the contract's
 * range (7–3650), and the confirmation a save that deletes history must ask first.
 */
import { RETENTION_MESSAGES, type RetentionRequest, retentionRequestSchema } from "#contract";
import { z } from "zod";

/** Form state: the days as typed text. */
export interface RetentionFormValues {
  closedTradesDays: string;
  auditDays: string;
}

const days = z
  .string()
  .trim()
  .regex(/^\d{1,9}$/, RETENTION_MESSAGES.days)
  .transform(Number);

/** Validates the form with the contract's messages and converts it to the PUT body. */
export const retentionFormSchema = z.object({ closedTradesDays: days, auditDays: days }).pipe(retentionRequestSchema);

export function retentionToForm(policy: RetentionRequest): RetentionFormValues {
  return { closedTradesDays: String(policy.closedTradesDays), auditDays: String(policy.auditDays) };
}

/**
 * What saving `next` over `current` deletes, as the confirmation's sentences; empty when no value
 * is lowered (a longer retention deletes nothing, so it is saved without asking).
 */
export function retentionLossWarning(current: RetentionRequest, next: RetentionRequest): string[] {
  const lines: string[] = [];
  if (next.closedTradesDays < current.closedTradesDays) {
    lines.push(`Closed trades older than ${next.closedTradesDays} days will be deleted at the next hourly cleanup. Export them first if you need them.`);
  }
  if (next.auditDays < current.auditDays) {
    lines.push(`Audit entries older than ${next.auditDays} days will be deleted at the next hourly cleanup.`);
  }
  return lines;
}

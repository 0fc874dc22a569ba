/**
 * The order comment every copy carries, `cb:<master ticket>` (at most 31 characters: MT4's
 * comment limit), so a slave EA finds its copy of a master ticket after a crash
 * (docs/bridge-protocol.md §6.2). A netting master's addition (leg ≥ 1, domain/netting.ts) is a
 * copy of its own: `cb:<master ticket>/<leg>`.
 */
export const copyComment = (masterTicket: string, leg = 0): string => (leg > 0 ? `cb:${masterTicket}/${leg}` : `cb:${masterTicket}`).slice(0, 31);

/**
 * The master ticket and leg a copy's comment names (`cb:5001` → leg 0, `cb:5001/2` → leg 2), or
 * null when the comment is not a CopyBridge one. Brokers may append to a comment ("cb:5001[sl]"):
 * only the leading `cb:<digits>[/<digits>]` counts.
 */
export function parseCopyComment(comment: string | null): { masterTicket: string; leg: number } | null {
  const m = /^cb:(\d+)(?:\/(\d+))?/.exec(comment ?? "");
  if (!m) return null;
  return { masterTicket: m[1]!, leg: m[2] === undefined ? 0 : Number(m[2]) };
}

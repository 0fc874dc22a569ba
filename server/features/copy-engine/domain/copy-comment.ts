/**
 * The order comment every copy carries, `cb:<master ticket>` (at most 31 characters: MT4's
 * comment limit), so a slave EA finds its copy of a master ticket after a crash
 * (docs/bridge-protocol.md §6.2).
 */
export const copyComment = (masterTicket: string): string => `cb:${masterTicket}`.slice(0, 31);

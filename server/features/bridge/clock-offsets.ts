/**
 * Each terminal's clock offset (server − terminal, ms), estimated from the `sentAtMs` its signed
 * requests carry (docs/bridge-protocol.md "Latency timestamps"): the minimum of receivedAt − sentAt
 * over the account's recent samples (domain/latency-hops.ts estimateClockOffsetMs). Kept in this
 * process's memory: each instance estimates from the requests it receives, and a restart only
 * loosens the estimate until the next few requests (heartbeats arrive every few seconds).
 */
import { estimateClockOffsetMs, type OffsetSample } from "../copy-engine/domain/index.ts";

/** Samples kept per account, and how old one may be (clocks drift: old samples stop counting). */
const MAX_SAMPLES = 64;
const MAX_AGE_MS = 10 * 60_000;
/** Accounts tracked at most; the least recently heard beyond it is forgotten. */
const MAX_ACCOUNTS = 50_000;

/** Recent offset samples per terminal account. */
export class ClockOffsets {
  private readonly byAccount = new Map<string, OffsetSample[]>();

  /**
   * Records a sample (when `sentAtMs` is present) and returns the account's offset estimate, ms,
   * including it; null when the account has no recent sample at all.
   */
  observe(accountId: string, sentAtMs: number | null | undefined, receivedAtMs: number): number | null {
    const kept = (this.byAccount.get(accountId) ?? []).filter((s) => receivedAtMs - s.receivedAtMs <= MAX_AGE_MS);
    if (sentAtMs != null) kept.push({ receivedAtMs, sentAtMs });
    while (kept.length > MAX_SAMPLES) kept.shift();
    this.byAccount.delete(accountId);
    if (kept.length > 0) this.byAccount.set(accountId, kept);
    if (this.byAccount.size > MAX_ACCOUNTS) {
      const oldest = this.byAccount.keys().next().value;
      if (oldest !== undefined) this.byAccount.delete(oldest);
    }
    return estimateClockOffsetMs(kept);
  }
}

/** The process's estimator (account ids are unique across tenants and databases). */
export const clockOffsets = new ClockOffsets();

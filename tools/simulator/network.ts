/**
 * The EA network settings a simulated terminal takes from its heartbeat answers
 * (docs/bridge-protocol.md §4.1 "Network settings": `network.timeoutMs` per request attempt,
 * `network.retryAttempts` after the first), as the real EAs do (CbBridge::ApplyNetwork): kept
 * until the next answer that carries them, and logged when they change.
 */
import type { EaNetwork } from "#contract";

/** The settings until the first heartbeat answer: the EAs' input default (5000 ms, 3 attempts). */
export const INITIAL_NETWORK: EaNetwork = { timeoutMs: 5000, retryAttempts: 2 };

export class NetworkSettings {
  current: EaNetwork = { ...INITIAL_NETWORK };

  /** Takes `network` of an answer (absent: unchanged); returns the log line of a change, or null. */
  apply(network: EaNetwork | undefined): string | null {
    if (!network) return null;
    if (network.timeoutMs === this.current.timeoutMs && network.retryAttempts === this.current.retryAttempts) return null;
    this.current = { ...network };
    return `network settings from the bridge: timeout ${network.timeoutMs} ms, ${network.retryAttempts} retries`;
  }
}

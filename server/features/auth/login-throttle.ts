/**
 * Login throttling that cannot be turned against the user (OWASP Authentication Cheat Sheet:
 * lockout must not become a denial of service), with rate-limiter-flexible:
 *
 * - per (email, client address): the first `maxFailuresPerAccount` failures are free; after that
 *   the pair must wait before its next attempt, `delayBaseSeconds` doubling with each further
 *   failure up to `delayMaxSeconds`. Failures are forgotten `blockSeconds` after the last one
 *   (plus its wait), and a successful login clears the pair.
 * - per client address: `maxFailuresPerIp` failures within `blockSeconds` block the address for
 *   `blockSeconds`, whatever the emails.
 *
 * There is no lock of the account itself: someone else's failures (from another address) never
 * refuse a correct password from a client that has not failed. A refused attempt answers 429 with
 * Retry-After (whole seconds) and is not counted, so waiting out the delay is always enough.
 * The counters live in this process's memory (one instance; several instances each count their own).
 */
import { RateLimiterMemory, type RateLimiterRes } from "rate-limiter-flexible";
import type { Config } from "../../config.ts";
import { AppError } from "../../http/errors.ts";

/** Shown on every 429 of the login (the dashboard displays the server's message, spec §8). */
export const TOO_MANY_ATTEMPTS = "Too many failed login attempts. Please try again later.";

/** Large enough that counting failures with `penalty` never rejects. */
const UNLIMITED = Number.MAX_SAFE_INTEGER;

/**
 * The wait (seconds) after `failures` failures of one (email, address) pair, 0 while they are free:
 * `base · 2^(failures − free)`, capped at `max`. Pure, for tests.
 */
export function loginDelaySeconds(failures: number, cfg: Pick<Config["login"], "maxFailuresPerAccount" | "delayBaseSeconds" | "delayMaxSeconds">): number {
  const over = failures - cfg.maxFailuresPerAccount;
  if (over < 0) return 0;
  return Math.min(cfg.delayMaxSeconds, cfg.delayBaseSeconds * 2 ** Math.min(over, 30));
}

function isBlocked(res: RateLimiterRes | null, points: number): res is RateLimiterRes {
  return res !== null && res.consumedPoints > points && res.msBeforeNext > 0;
}

export class LoginThrottle {
  /** Failures per (email, address), forgotten `blockSeconds` (plus the wait) after the last one. */
  private readonly pairFailures: RateLimiterMemory;
  /** The pair's current wait, set with block(). */
  private readonly pairDelay: RateLimiterMemory;
  private readonly byIp: RateLimiterMemory;

  constructor(private readonly cfg: Config["login"]) {
    this.pairFailures = new RateLimiterMemory({ keyPrefix: "login_pair_failures", points: UNLIMITED, duration: cfg.blockSeconds });
    this.pairDelay = new RateLimiterMemory({ keyPrefix: "login_pair_delay", points: 1, duration: 1 });
    this.byIp = new RateLimiterMemory({
      keyPrefix: "login_ip",
      points: cfg.maxFailuresPerIp,
      duration: cfg.blockSeconds,
      blockDuration: cfg.blockSeconds,
    });
  }

  /** Throws 429 `rate_limited` (Retry-After in seconds) while the pair must wait or the address is blocked. */
  async assertAllowed(email: string, ip: string): Promise<void> {
    const [delay, byIp] = await Promise.all([this.pairDelay.get(pairKey(email, ip)), this.byIp.get(ip)]);
    // The address is refused once it has used all its points (the Nth failure already blocks the next attempt).
    const waits = [isBlocked(delay, this.pairDelay.points) ? delay : null, isBlocked(byIp, this.byIp.points - 1) ? byIp : null].filter(
      (r): r is RateLimiterRes => r !== null,
    );
    if (waits.length === 0) return;
    const retryAfter = Math.max(1, Math.ceil(Math.max(...waits.map((r) => r.msBeforeNext)) / 1000));
    throw new AppError("rate_limited", TOO_MANY_ATTEMPTS, { headers: { "retry-after": String(retryAfter) } });
  }

  /** Counts a failed login of `email` from `ip` and starts the pair's wait once its free failures are used. */
  async recordFailure(email: string, ip: string): Promise<void> {
    const key = pairKey(email, ip);
    // consume() rejects once the limit is passed; the block it starts is what we want.
    await this.byIp.consume(ip).catch(() => undefined);
    const failures = ((await this.pairFailures.get(key))?.consumedPoints ?? 0) + 1;
    const wait = loginDelaySeconds(failures, this.cfg);
    // Rewritten with a fresh lifetime, so the count outlives the wait it causes and keeps growing.
    await this.pairFailures.delete(key);
    await this.pairFailures.penalty(key, failures, { customDuration: this.cfg.blockSeconds + wait });
    if (wait > 0) await this.pairDelay.block(key, wait);
  }

  /** A successful login clears its (email, address) pair (not the address's count). */
  async recordSuccess(email: string, ip: string): Promise<void> {
    const key = pairKey(email, ip);
    await Promise.all([this.pairFailures.delete(key), this.pairDelay.delete(key)]);
  }
}

function pairKey(email: string, ip: string): string {
  return JSON.stringify([email, ip]);
}

/**
 * Throttles failed logins per account (email) and per client address, with rate-limiter-flexible.
 * After N failures in the window the key is blocked for `blockSeconds` and login answers 429 with
 * Retry-After. A successful login clears the account's counter (not the address's).
 */
import { RateLimiterMemory, type RateLimiterRes } from "rate-limiter-flexible";
import type { Config } from "../../config.ts";
import { AppError } from "../../http/errors.ts";

export class LoginThrottle {
  private readonly byAccount: RateLimiterMemory;
  private readonly byIp: RateLimiterMemory;

  constructor(cfg: Config["login"]) {
    this.byAccount = new RateLimiterMemory({
      keyPrefix: "login_account",
      points: cfg.maxFailuresPerAccount,
      duration: cfg.blockSeconds,
      blockDuration: cfg.blockSeconds,
    });
    this.byIp = new RateLimiterMemory({
      keyPrefix: "login_ip",
      points: cfg.maxFailuresPerIp,
      duration: cfg.blockSeconds,
      blockDuration: cfg.blockSeconds,
    });
  }

  /** Throws 429 when either the account or the address is currently blocked. */
  async assertAllowed(email: string, ip: string): Promise<void> {
    const [a, i] = await Promise.all([this.byAccount.get(email), this.byIp.get(ip)]);
    const blocked = [
      { res: a, max: this.byAccount.points },
      { res: i, max: this.byIp.points },
    ]
      .filter(({ res, max }) => res !== null && res.consumedPoints >= max && res.msBeforeNext > 0)
      .map(({ res }) => res as RateLimiterRes);
    if (blocked.length === 0) return;
    const retryAfter = Math.ceil(Math.max(...blocked.map((r) => r.msBeforeNext)) / 1000);
    throw new AppError("rate_limited", "Too many failed login attempts. Please try again later.", {
      headers: { "retry-after": String(retryAfter) },
    });
  }

  async recordFailure(email: string, ip: string): Promise<void> {
    await Promise.all([
      // consume() rejects once the limit is passed; the block it starts is what we want.
      this.byAccount.consume(email).catch(() => undefined),
      this.byIp.consume(ip).catch(() => undefined),
    ]);
  }

  async recordSuccess(email: string): Promise<void> {
    await this.byAccount.delete(email);
  }
}

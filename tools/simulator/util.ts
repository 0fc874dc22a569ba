/** Small helpers shared by the simulated terminals: interruptible sleep and a timestamped logger. */

/** Resolves after `ms` milliseconds, or at once when `signal` aborts (never rejects). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    signal?.addEventListener("abort", done, { once: true });
  });
}

export interface Logger {
  /** Trade-by-trade lines; silent with --quiet. */
  event(source: string, text: string): void;
  /** Status lines, always shown. */
  info(text: string): void;
  /** Problems, always shown (stderr). */
  warn(source: string, text: string): void;
}

const clock = (): string => new Date().toISOString().slice(11, 23);

/** A console logger; `quiet` hides event lines. */
export function createLogger(quiet: boolean): Logger {
  return {
    event: (source, text) => {
      if (!quiet) console.info(`${clock()} ${source.padEnd(10)} ${text}`);
    },
    info: (text) => console.info(text),
    warn: (source, text) => console.warn(`${clock()} ${source.padEnd(10)} ${text}`),
  };
}

/** A short description of a thrown value (undici and BridgeHttpError messages included). */
export function describeError(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as { cause?: unknown }).cause;
    return cause instanceof Error ? `${err.message} (${cause.message})` : err.message;
  }
  return String(err);
}

/** Runs `save` at most once per `delayMs` after soon(), and at once with now(); errors are logged. */
export function debouncedSaver(save: (() => void) | undefined, onError: (err: unknown) => void, delayMs = 1000): { soon(): void; now(): void } {
  let timer: NodeJS.Timeout | undefined;
  const run = () => {
    clearTimeout(timer);
    timer = undefined;
    try {
      save?.();
    } catch (err) {
      onError(err);
    }
  };
  return {
    soon: () => {
      if (save && !timer) timer = setTimeout(run, delayMs);
    },
    now: run,
  };
}

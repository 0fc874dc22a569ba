/**
 * What a page sends: every request to the app's /api and /v1 paths with its parsed JSON body, so
 * a test can check the wire payload (§7) or that nothing was sent at all.
 */
import type { Page, Request } from "playwright-core";

export interface RecordedCall {
  method: string;
  /** Path without the query string, e.g. /api/risk-limits */
  path: string;
  query: URLSearchParams;
  /** Parsed JSON body; the raw text when it is not JSON; undefined without a body. */
  body: unknown;
  /** Date.now() when the request started. */
  at: number;
}

const isAppCall = (url: URL) => url.pathname.startsWith("/api/") || url.pathname.startsWith("/v1/");

/** Records the page's requests to /api and /v1 from construction on. */
export class CallLog {
  readonly calls: RecordedCall[] = [];

  constructor(page: Page) {
    page.on("request", (req: Request) => {
      const url = new URL(req.url());
      if (!isAppCall(url)) return;
      const raw = req.postData();
      let body: unknown = undefined;
      if (raw !== null) {
        try {
          body = JSON.parse(raw);
        } catch {
          body = raw;
        }
      }
      this.calls.push({ method: req.method(), path: url.pathname, query: url.searchParams, body, at: Date.now() });
    });
  }

  /** A position to pass to since(). */
  mark(): number {
    return this.calls.length;
  }

  /** Calls recorded after `mark`. */
  since(mark: number): RecordedCall[] {
    return this.calls.slice(mark);
  }

  /** Calls with this method and exact path (optionally only after `mark`). */
  of(method: string, path: string, mark = 0): RecordedCall[] {
    return this.since(mark).filter((c) => c.method === method && c.path === path);
  }
}

/** Types of the messages the page's /ws socket received, in order (§4 live messages). */
export class SocketLog {
  readonly types: string[] = [];

  constructor(page: Page) {
    page.on("websocket", (ws) => {
      if (new URL(ws.url()).pathname !== "/ws") return;
      ws.on("framereceived", ({ payload }) => {
        try {
          const message = JSON.parse(String(payload)) as { type?: unknown };
          if (typeof message.type === "string") this.types.push(message.type);
        } catch {
          this.types.push("(unparseable)");
        }
      });
    });
  }

  /** Whether the server greeted a socket of this page (it sends `connected` on every connect). */
  connected(): boolean {
    return this.types.includes("connected");
  }
}

/**
 * The request log (LOG_REQUESTS, README § Configuration). Fastify's own request logging writes two
 * lines per request at `info`; with terminals polling and the Bridge screen's 2 s stats poll that
 * came to about 0.6 GB a day, never rotated (issue 15). Modes:
 * - `errors` (default): one line per answer with a 5xx status or a failed reply (the error
 *   handler has already logged the stack); ordinary traffic, 4xx and unknown routes write nothing;
 * - `all`: Fastify's incoming / completed lines for every request, as before;
 * - `off`: no request lines at all (the error handler still logs unexpected errors).
 */
import { LogController, type FastifyReply, type FastifyRequest } from "fastify";

export const REQUEST_LOG_MODES = ["all", "errors", "off"] as const;
export type RequestLogMode = (typeof REQUEST_LOG_MODES)[number];

/** Keeps Fastify's own error lines (stream, serializer, writeHead) and drops the per-request ones unless the answer failed. */
class ErrorsOnlyLogController extends LogController {
  override incomingRequest(): void {}

  override routeNotFound(): void {}

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    if (!error && reply.statusCode < 500) return;
    reply.log.error({ req: request, res: reply, err: error ?? undefined, responseTime: reply.elapsedTime }, "request failed");
  }
}

/** Fastify's `logController` for `mode`. */
export function requestLogController(mode: RequestLogMode): LogController {
  switch (mode) {
    case "all":
      return new LogController();
    case "off":
      return new LogController({ disableRequestLogging: true });
    case "errors":
      return new ErrorsOnlyLogController();
  }
}

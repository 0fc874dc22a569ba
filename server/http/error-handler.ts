/**
 * Maps every error to one JSON shape `{error, code?, issues?}`. Client mistakes get their 4xx;
 * anything unexpected is logged with its stack and answered with a bare 500 (no detail leaks).
 */
import type { IncomingMessage } from "node:http";
import type { FastifyError, FastifyInstance } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { AppError, validationFailed, type ErrorIssue } from "./errors.ts";

function issuePath(instancePath: string, context: string | undefined): string {
  const p = instancePath.replace(/^\//, "").replace(/\//g, ".");
  if (context === "querystring" || context === "params") return p ? `${context}.${p}` : context;
  return p || "body";
}

/** Most bytes of an over-limit body read and thrown away so its sender can read the 413. */
export const DRAIN_MAX_BYTES = 64 * 1024 * 1024;
/** Longest wait for an over-limit body to finish arriving, ms. */
export const DRAIN_TIMEOUT_MS = 15_000;

/**
 * Reads the rest of a request body and discards it (nothing is buffered), up to `maxBytes` and
 * `timeoutMs`. Resolves true when the body ended, false when a cap was hit or the socket failed.
 */
export function drainRequest(raw: IncomingMessage, maxBytes = DRAIN_MAX_BYTES, timeoutMs = DRAIN_TIMEOUT_MS): Promise<boolean> {
  if (raw.readableEnded || raw.destroyed) return Promise.resolve(raw.readableEnded);
  return new Promise((resolve) => {
    let seen = 0;
    const finish = (ended: boolean) => {
      clearTimeout(timer);
      raw.off("data", onData).off("end", onEnd).off("error", onError).off("close", onClose);
      if (!ended) raw.pause();
      resolve(ended);
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > maxBytes) finish(false);
    };
    const onEnd = () => finish(true);
    const onError = () => finish(false);
    const onClose = () => finish(raw.readableEnded);
    const timer = setTimeout(() => finish(false), timeoutMs);
    raw.on("data", onData).on("end", onEnd).on("error", onError).on("close", onClose);
    raw.resume();
  });
}

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if (error.extra.headers) void reply.headers(error.extra.headers);
      return reply.status(error.status).send(error.toBody());
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues: ErrorIssue[] = error.validation.map((v) => ({
        path: issuePath(v.instancePath, error.validationContext),
        message: v.message ?? "Invalid value",
      }));
      return reply.status(400).send(validationFailed(issues).toBody());
    }
    const status = error.statusCode ?? 500;
    if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") {
      // Fastify answers an over-limit body at once with `Connection: close`: the socket then closes
      // while the client is still sending, and most clients report a reset instead of the 413.
      // Read the rest first (discarding it, capped) so the answer reaches the sender.
      const drained = await drainRequest(request.raw);
      if (drained) reply.removeHeader("connection");
      return reply.status(413).send({ error: "Request body is too large", code: "payload_too_large" });
    }
    if (error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") {
      return reply.status(415).send({ error: "Content-Type must be application/json", code: "unsupported_media_type" });
    }
    if (status >= 400 && status < 500) {
      const message = error.code === "FST_ERR_CTP_EMPTY_JSON_BODY" || error instanceof SyntaxError ? "Request body is not valid JSON" : error.message;
      return reply.status(status).send({ error: message, code: status === 400 ? "bad_request" : "client_error" });
    }
    request.log.error({ err: error }, "unhandled error");
    return reply.status(500).send({ error: "Internal server error", code: "internal" });
  });
}

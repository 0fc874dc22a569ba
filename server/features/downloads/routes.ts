/**
 * GET /downloads/copybridge-ea.zip — the Expert Advisors for MetaTrader 4 and 5 (issue 10). No
 * login: the zip holds source code and instructions, no secret. Built once per process start from
 * the files under config.terminalsDir and kept in memory; answers 304 to a matching
 * If-None-Match, 404 JSON when this server has no EA sources.
 */
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../http/context.ts";
import { AppError } from "../../http/errors.ts";
import { buildEaBundle, type EaBundle, etagMatches } from "./ea-bundle.ts";

/** Stable download path (linked from the dashboard and README.md). */
export const EA_DOWNLOAD_PATH = "/downloads/copybridge-ea.zip";

/** Builds the EA zip (a read error is logged and leaves the download unavailable) and registers its route. */
export async function registerDownloadRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  let bundle: EaBundle | null = null;
  try {
    bundle = await buildEaBundle(ctx.config.terminalsDir);
  } catch (err) {
    app.log.error({ err, terminalsDir: ctx.config.terminalsDir }, "could not build the Expert Advisor download");
  }
  if (bundle) app.log.debug({ files: bundle.entries.length, bytes: bundle.zip.length }, "Expert Advisor download ready");
  else app.log.warn({ terminalsDir: ctx.config.terminalsDir }, `no Expert Advisor sources found: ${EA_DOWNLOAD_PATH} answers 404`);

  app.get(EA_DOWNLOAD_PATH, { schema: { description: "Downloads the MetaTrader 4 and 5 Expert Advisors with setup instructions as a zip (no login).", tags: ["Downloads"] } }, async (request, reply) => {
    if (!bundle) throw new AppError("not_found", "The Expert Advisor download is not available on this server");
    // Revalidate every time: a server upgrade ships new EAs under the same URL.
    void reply.header("etag", bundle.etag).header("cache-control", "no-cache");
    if (etagMatches(request.headers["if-none-match"], bundle.etag)) return reply.status(304).send();
    return reply
      .header("content-type", "application/zip")
      .header("content-disposition", 'attachment; filename="copybridge-ea.zip"')
      .header("x-content-type-options", "nosniff")
      .send(bundle.zip);
  });
}

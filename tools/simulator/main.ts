/**
 * `npm run simulate`: a master EA and N slave EAs speaking the signed bridge protocol over HTTP
 * (docs/bridge-protocol.md). Options: see USAGE in options.ts (`npm run simulate -- --help`).
 */
import { OptionsError, parseOptions, USAGE } from "./options.ts";
import { startSimulation } from "./run.ts";

async function main(): Promise<void> {
  let opts;
  try {
    opts = parseOptions(process.argv.slice(2));
  } catch (err) {
    if (err instanceof OptionsError) {
      if (err.message === "help") {
        console.info(USAGE);
        process.exit(0);
      }
      console.error(`${err.message}\n\n${USAGE}`);
      process.exit(2);
    }
    throw err;
  }
  console.info(
    `Simulating ${opts.master ? "a master" : "no master"} and ${opts.slaves.length} slave(s) against ${opts.url}` +
      ` — ${opts.ratePerMin} events/min, seed ${opts.seed}${opts.durationS ? `, ${opts.durationS} s` : ", Ctrl-C to stop"}`,
  );
  const sim = await startSimulation(opts);
  let firstInterrupt = 0;
  process.on("SIGINT", () => {
    // Ctrl-C reaches this process twice (from the terminal and relayed by tsx): only a press
    // more than a second after the first one means "exit at once".
    if (firstInterrupt && Date.now() - firstInterrupt > 1000) {
      console.error("interrupted again: exiting without waiting");
      process.exit(130);
    }
    if (firstInterrupt) return;
    firstInterrupt = Date.now();
    console.info("stopping (Ctrl-C again to exit at once)…");
    void sim.stop();
  });
  process.on("SIGTERM", () => void sim.stop());
  await sim.done;
  process.exit(0);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});

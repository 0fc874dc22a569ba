/**
 * One real EA against one fake bridge, for the harness tests that drive an EA's protocol
 * (slave-protection, slave-reports, ea-network): builds the EA (build.ts, cached), starts the fake
 * bridge, gives the EA a fresh terminal folder and a hedging USD account with EURUSD at 1.0845,
 * and starts it with the bridge's address, the key and secret, and the test's inputs.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { EaProcess, fxSymbol, type SimBroker } from "../../e2e/terminals/ea-process.ts";
import { buildEa, REPO_DIR } from "./build.ts";
import type { FakeBridge } from "./fake-bridge.ts";

/** The slave and master EAs' sources, relative to the repository. */
export const EA_SOURCES = {
  "slave mt5": "terminals/MQL5/Experts/CopyBridge/CopyBridgeSlave.mq5",
  "slave mt4": "terminals/MQL4/Experts/CopyBridge/CopyBridgeSlave.mq4",
  "master mt5": "terminals/MQL5/Experts/CopyBridge/CopyBridgeMaster.mq5",
} as const;

export interface EaOnFakeBridgeOptions {
  /** The EA's name in logs and its temporary folder's prefix. */
  name: string;
  ea: keyof typeof EA_SOURCES;
  /** The simulated account's login (the EA's state file is named after it). */
  login: number;
  /** The EA's `InpApiKey` and `InpApiSecret` (64 hex digits). */
  apiKey: string;
  apiSecret: string;
  /** Further EA inputs (poll wait, heartbeat period, timeouts …). */
  inputs?: Record<string, string>;
}

export interface EaOnFakeBridge {
  ea: EaProcess;
  /** The EA's terminal folder (MQL `Files/` lives under it). */
  root: string;
  /** Stops the EA and the bridge and removes the folder. */
  stop(): Promise<void>;
}

/** Starts `bridge` and the EA against it (the EA's first requests follow at once). */
export async function startEaOnFakeBridge(bridge: FakeBridge, o: EaOnFakeBridgeOptions): Promise<EaOnFakeBridge> {
  const { binary } = await buildEa(path.join(REPO_DIR, EA_SOURCES[o.ea]));
  await bridge.start();
  const root = mkdtempSync(path.join(tmpdir(), `cb-${o.name}-`));
  const broker: SimBroker = { login: o.login, server: "Sim-Demo", company: "Sim", currency: "USD", balance: "10000", leverage: 100, marginMode: "hedging", symbols: [fxSymbol("EURUSD", 1.0845)] };
  const ea = new EaProcess(o.name, {
    binary,
    dir: root,
    broker,
    inputs: { InpServerUrl: bridge.url, InpApiKey: o.apiKey, InpApiSecret: o.apiSecret, ...o.inputs },
    allowUrl: bridge.url,
  });
  ea.start();
  return {
    ea,
    root,
    stop: async () => {
      await ea.stop();
      await bridge.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

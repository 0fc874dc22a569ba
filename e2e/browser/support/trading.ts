/**
 * Trading fixtures for the browser suites: a tenant with a master, slaves and their API keys (the
 * test drives the master itself with a BridgeClient, for determinism), and real simulated slave
 * EAs (tools/simulator, slaves only) speaking the signed protocol to the server under test.
 */
import { expect } from "vitest";
import { parseOptions } from "../../../tools/simulator/options.ts";
import { startSimulation } from "../../../tools/simulator/run.ts";
import type { Logger } from "../../../tools/simulator/util.ts";
import { setUpBridge, type BridgeTenant, type Key } from "../../support/bridge.ts";
import { signUp, type SignedIn } from "../../support/tenant.ts";

export interface TradingTenant extends SignedIn, BridgeTenant {}

/**
 * A fresh tenant with a master (account 50001234, alias Main), `slaves` slaves (7001…, aliases
 * S1…, broker Pepperstone, MT4), a MASTER key and one bound SLAVE key per slave.
 */
export async function setUpTradingTenant(baseUrl: string, slaves = 3): Promise<TradingTenant> {
  const signedIn = await signUp(baseUrl);
  const bridge = await setUpBridge(signedIn.api, baseUrl, slaves);
  return { ...signedIn, ...bridge };
}

/** A tenant with two slaves (Alpha active, Beta paused) for the configuration screens. */
export interface ConfigTenant extends SignedIn {
  alphaId: string;
  betaId: string;
}

/** A fresh configuration tenant: slaves Alpha (7101, Pepperstone, active) and Beta (7102, XM, paused). */
export async function setUpConfigTenant(baseUrl: string): Promise<ConfigTenant> {
  const t = await signUp(baseUrl);
  const slave = async (accountNumber: string, alias: string, broker: string) => {
    const res = await t.api.post("/api/accounts", { accountNumber, alias, broker, platform: "MT4", role: "SLAVE", status: "active" });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const alphaId = await slave("7101", "Alpha", "Pepperstone");
  const betaId = await slave("7102", "Beta", "XM");
  expect((await t.api.put(`/api/accounts/${betaId}`, { status: "paused" })).status).toBe(200);
  return { ...t, alphaId, betaId };
}

export interface SlaveEas {
  /** Simulator warnings (failed polls, reports, heartbeats): empty in a healthy run. */
  warnings: string[];
  /** Drains what is still queued for the slaves, then stops them. */
  stop(): Promise<void>;
}

/**
 * Starts one simulated slave EA per key (no master; brokers never reject, so every copy fills).
 * Resolves after each EA's first heartbeat was accepted.
 */
export async function startSlaveEas(baseUrl: string, keys: readonly Key[]): Promise<SlaveEas> {
  const argv = ["--url", baseUrl, "--reject-rate", "0", "--seed", "7", "--tick-ms", "100", "--quiet"];
  for (const key of keys) argv.push("--slave", `${key.apiKey}:${key.secret}`);
  const options = parseOptions(argv, {});
  const warnings: string[] = [];
  const log: Logger = {
    event: () => undefined,
    info: () => undefined,
    warn: (source, text) => warnings.push(`${source}: ${text}`),
  };
  const simulation = await startSimulation(options, log);
  let stopping: Promise<void> | undefined;
  return { warnings, stop: () => (stopping ??= simulation.stop()) };
}

/**
 * What the demo sets up: one organisation, a master and three slaves with different symbol
 * mappings, lot multipliers and risk limits, so each copy rule shows on the dashboard.
 */

export interface DemoMapping {
  masterSymbol: string;
  slaveSymbol: string;
  lotMultiplier: number;
  enabled: boolean;
}

/** Risk limit fields of POST /api/risk-limits (lots, points, percent). */
export interface DemoRisk {
  maxDrawdownPct: number;
  maxLotSize: number;
  maxPositions: number;
  maxSpreadPts: number;
  maxDeviationPts: number;
  enabled: boolean;
}

export interface DemoSlave {
  accountNumber: string;
  alias: string;
  broker: string;
  /** Simulated starting balance, USD. */
  balance: number;
  /** One line on what this slave shows, for the demo banner. */
  rules: string;
  mappings: DemoMapping[];
  risk: DemoRisk;
}

export interface DemoPlan {
  user: { email: string; password: string; firstName: string; lastName: string };
  tenant: { name: string; slug: string };
  master: { accountNumber: string; alias: string; broker: string; balance: number };
  slaves: DemoSlave[];
}

export const DEMO_EMAIL = "demo@copybridge.local";
export const DEMO_PASSWORD = "copybridge-demo";
/** Prefix of the API keys the demo creates (older ones are deleted on a re-run: their secrets are gone). */
export const DEMO_KEY_PREFIX = "demo-simulator";

/** The demo organisation; email and password can be overridden from the command line. */
export function demoPlan(email = DEMO_EMAIL, password = DEMO_PASSWORD): DemoPlan {
  return {
    user: { email, password, firstName: "Demo", lastName: "Trader" },
    tenant: { name: "CopyBridge Demo", slug: "copybridge-demo" },
    master: { accountNumber: "50001234", alias: "Demo Master", broker: "ICMarkets-Demo", balance: 50_000 },
    slaves: [
      {
        accountNumber: "7001",
        alias: "Alpha",
        broker: "Pepperstone-Demo",
        balance: 10_000,
        rules: "EURUSD → EURUSD.a ×1.5, XAUUSD → GOLD ×0.5, max 10 positions",
        mappings: [
          { masterSymbol: "EURUSD", slaveSymbol: "EURUSD.a", lotMultiplier: 1.5, enabled: true },
          { masterSymbol: "XAUUSD", slaveSymbol: "GOLD", lotMultiplier: 0.5, enabled: true },
        ],
        risk: { maxDrawdownPct: 10, maxLotSize: 5, maxPositions: 10, maxSpreadPts: 40, maxDeviationPts: 30, enabled: true },
      },
      {
        accountNumber: "7002",
        alias: "Bravo",
        broker: "FxPro-Demo",
        balance: 25_000,
        rules: "no mappings: every symbol 1:1",
        mappings: [],
        risk: { maxDrawdownPct: 20, maxLotSize: 10, maxPositions: 20, maxSpreadPts: 40, maxDeviationPts: 30, enabled: true },
      },
      {
        accountNumber: "7003",
        alias: "Charlie",
        broker: "OANDA-Demo",
        balance: 5_000,
        rules: "GBPUSD mapping disabled (not copied), USDJPY ×2, max 0.5 lot, max 5 positions, max spread 30 pts",
        mappings: [
          { masterSymbol: "GBPUSD", slaveSymbol: "GBPUSD", lotMultiplier: 1, enabled: false },
          { masterSymbol: "USDJPY", slaveSymbol: "USDJPY", lotMultiplier: 2, enabled: true },
        ],
        risk: { maxDrawdownPct: 10, maxLotSize: 0.5, maxPositions: 5, maxSpreadPts: 30, maxDeviationPts: 20, enabled: true },
      },
    ],
  };
}

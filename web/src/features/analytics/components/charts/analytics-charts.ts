/**
 * Every recharts-based chart of the screen, as one dynamically imported module: the build puts
 * recharts and these charts into a single chunk that only /analytics loads (see lazy-charts).
 */
export { EquityChart } from "./equity-chart";
export { LatencyChart } from "./latency-chart";
export { SlippageChart } from "./slippage-chart";

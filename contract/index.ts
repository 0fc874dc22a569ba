/** The one zod contract shared by server, web, tools and tests. */
export * from "./common.ts";
export * from "./auth.ts";
export * from "./accounts.ts";
export * from "./signals.ts";
export * from "./api-keys.ts";
export * from "./bridge.ts";
export * from "./terminal-state.ts";
export * from "./symbol-maps.ts";
export * from "./risk.ts";
export * from "./copy-settings.ts";
export * from "./trading-hours.ts";
export * from "./analytics.ts";
export * from "./alerts.ts";
export * from "./audit.ts";
export * from "./realtime.ts";
export * from "./settings.ts";

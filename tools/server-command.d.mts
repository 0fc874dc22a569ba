/** Types of tools/server-command.mjs. */
export const SERVER_NODE_OPTIONS: readonly string[];
export const SERVER_LOADER: string;
export function serverNodeArgs(extra?: readonly string[]): string[];

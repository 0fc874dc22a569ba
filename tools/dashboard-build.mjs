// Builds the dashboard (web/dist) when it is missing or older than its sources. Shared by
// `npm start` (tools/start.mjs) and `npm run demo`; plain JavaScript so `npm start` needs no tsx.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const SOURCES = ["web/src", "web/public", "web/index.html", "web/vite.config.ts", "contract"];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** true when web/dist is missing or older than any of its sources. */
export function dashboardNeedsBuild(root) {
  const built = join(root, "web/dist/index.html");
  if (!existsSync(built)) return true;
  return Math.max(...SOURCES.map((p) => newestMtime(join(root, p)))) > statSync(built).mtimeMs;
}

/** Runs the Vite build (output to this terminal); resolves true on success. */
export function buildDashboard(root) {
  const vite = join(root, "node_modules/vite/bin/vite.js");
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [vite, "build", "--config", "web/vite.config.ts", "--logLevel", "warn"], { cwd: root, stdio: "inherit" });
    child.once("exit", (code) => resolve(code === 0));
    child.once("error", () => resolve(false));
  });
}

// `npm start`: builds the dashboard when web/dist is missing or older than its sources, then runs
// the server (dashboard, /api, /ws and the /v1 bridge on one port) on the embedded database
// unless DATABASE_URL is set.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { buildDashboard, dashboardNeedsBuild } from "./dashboard-build.mjs";
import { serverNodeArgs } from "./server-command.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));

if (dashboardNeedsBuild(root)) {
  console.info("Building the dashboard (web/dist)…");
  if (!(await buildDashboard(root))) process.exit(1);
}

const child = spawn(process.execPath, serverNodeArgs(), {
  cwd: root,
  stdio: "inherit",
  env: { NODE_ENV: "production", ...process.env },
});
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 0 : 1)));

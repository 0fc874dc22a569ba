/** Types of tools/dashboard-build.mjs. */
export function dashboardNeedsBuild(root: string): boolean;
export function buildDashboard(root: string): Promise<boolean>;

export { MasterAccountPage } from "./components/master-page";
export { OverviewPage } from "./components/overview-page";
export { SlaveAccountsPage } from "./components/slaves-page";

export { LogsPage } from "./components/logs-page";

export { AlertsPage } from "./components/alerts-page";

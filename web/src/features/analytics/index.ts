export { AnalyticsPage } from "./components/analytics-page";

export { MappingsPage } from "./components/mappings-page";

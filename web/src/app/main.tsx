import "@/lib/zod-csp";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import "@/styles.css";
import { AppProviders } from "./providers";
import { AppRoutes } from "./router";

const root = document.getElementById("root");
if (!root) throw new Error("index.html must contain #root");

createRoot(root).render(
  <StrictMode>
    <AppProviders>
      <AppRoutes />
    </AppProviders>
  </StrictMode>,
);

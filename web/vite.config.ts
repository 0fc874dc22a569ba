import { fileURLToPath } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { compression } from "vite-plugin-compression2";

const fromHere = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const serverOrigin = "http://127.0.0.1:3000";

/**
 * Dashboard build: root is web/, output web/dist (served by the server with SPA fallback).
 * In development, API, bridge, download and socket paths are proxied to the local server.
 */
export default defineConfig({
  root: fromHere("."),
  // .br and .gz beside every text file of the build: the server sends them as they are
  // (@fastify/static preCompressed), so no CPU is spent compressing per request.
  plugins: [react(), tailwindcss(), compression({ algorithms: ["brotliCompress", "gzip"], threshold: 1024, logLevel: "silent" })],
  // Settings › System Information shows when this dashboard was built.
  define: { "import.meta.env.VITE_BUILD_DATE": JSON.stringify(new Date().toISOString()) },
  resolve: {
    alias: {
      "@": fromHere("./src"),
    },
  },
  build: {
    outDir: fromHere("./dist"),
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Long-lived vendor chunks cache across deploys; feature pages are lazy chunks of their own.
        codeSplitting: {
          groups: [
            { name: "react", test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ },
            { name: "ui", test: /node_modules[\\/](radix-ui|@radix-ui|@floating-ui|lucide-react|class-variance-authority|clsx|tailwind-merge)[\\/]/ },
            { name: "data", test: /node_modules[\\/](@tanstack|react-hook-form|@hookform|zod)[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      "/api": serverOrigin,
      "/v1": serverOrigin,
      "/downloads": serverOrigin,
      "/ws": { target: serverOrigin, ws: true },
    },
  },
});

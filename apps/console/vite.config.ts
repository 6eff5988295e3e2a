import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// Built to static files under dist/ that the gateway serves at /console:
// hashed assets (cached for a year) and an index.html with no inline script,
// so the console runs under a strict CSP (script-src 'self').
export default defineConfig({
  root: import.meta.dirname,
  base: "/console/",
  plugins: [react()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    assetsInlineLimit: 0,
    sourcemap: false,
    reportCompressedSize: false,
  },
});

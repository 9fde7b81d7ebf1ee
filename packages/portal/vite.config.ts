/**
 * The portal's build: a static single-page app under `/portal/` (served by `tuma serve`,
 * packages/http/src/portal/Assets.ts). Hashed file names under `assets/` are cached for a year;
 * `index.html` is never cached. No plugin: esbuild compiles the JSX.
 */
import { defineConfig } from "vite"

export default defineConfig({
  base: "/portal/",
  esbuild: { jsx: "automatic" },
  // The workspace's packages resolve to their TypeScript sources (no build step in the edit loop).
  resolve: { conditions: ["@tuma/source", "module", "browser", "development|production"] },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    chunkSizeWarningLimit: 2048,
    reportCompressedSize: false,
    // two pages of one build: the customer portal and the operator console (served under /console)
    rollupOptions: { input: { portal: "index.html", console: "console.html" } }
  },
  server: { proxy: { "/portal/api": "http://127.0.0.1:3000", "/console/api": "http://127.0.0.1:3000" } }
})

import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// Vite sees only the browser app (src/web) and the shared contract (src/shared):
// sharp, SQLite and the API key never reach the bundle.
export default defineConfig({
  plugins: [react()],
  root: ".",
  publicDir: "public",
  // The first screen is measured by `npm run bench -- ui` (gzipped); the raw-size warning is noise.
  build: { outDir: "dist", emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 1500 },
  server: { strictPort: true },
});

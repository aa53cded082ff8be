import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// Vite sees only the browser app (src/web) and the shared contract (src/shared):
// sharp, SQLite and the API key never reach the bundle.
export default defineConfig({
  plugins: [react()],
  root: ".",
  publicDir: "public",
  build: { outDir: "dist", emptyOutDir: true, sourcemap: false },
  server: { strictPort: true },
});

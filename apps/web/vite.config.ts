import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { fileURLToPath } from 'node:url';

// The console talks to the AIR server on port 3000 in development; in production the server
// serves this build from the same origin, so no proxy is needed there.
const server = 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  server: {
    proxy: {
      '/api': server,
      '/healthz': server,
      '/dev': server,
      '/metrics': server,
    },
  },
  // The manifest lets scripts/bundle-size.mjs weigh exactly what a route loads.
  // No modulepreload polyfill: every browser we support preloads modules natively.
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              // What every route runs anyway, in one file: one request and one gzip stream instead
              // of a dozen small ones (the sign-in route has a 150 KB budget).
              name: 'framework',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|i18next|react-i18next|tailwind-merge|clsx|class-variance-authority|@radix-ui[\\/]react-(slot|compose-refs))[\\/]/,
              priority: 10,
            },
          ],
        },
      },
    },
  },
});

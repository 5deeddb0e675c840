import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * The admin's own build: `npm run build` runs it after the server's, into dist/admin, where the
 * server's admin-app module serves it at /admin/ (hashed file names under assets/, cached for a
 * year; index.html never cached, its CSP nonce filled in per answer).
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/admin/',
  plugins: [react()],
  build: {
    outDir: process.env['CAL_ADMIN_OUT'] ?? fileURLToPath(new URL('../dist/admin', import.meta.url)),
    emptyOutDir: true,
    // No inline script anywhere: the modulepreload polyfill would be one in some setups.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      output: {
        // The libraries change less often than the screens: their own chunks stay cached across releases.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ },
            { name: 'mui', test: /node_modules[\\/](@mui|@emotion)[\\/]/ },
            { name: 'calendar', test: /node_modules[\\/](@fullcalendar|preact)[\\/]/ },
          ],
        },
      },
    },
  },
  server: { proxy: { '/cal': 'http://127.0.0.1:8080', '/fr': 'http://127.0.0.1:8080' } },
});

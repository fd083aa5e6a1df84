/**
 * The thread browser's build (npm run build:ui -> ui/dist/, served at /ui by
 * src/server/ui-route.ts). `npm run dev:ui` serves it with hot reload on :5173 and sends
 * /graphql (HTTP and WebSocket) to a threadstore on THREADSTORE_URL (default :4000).
 */
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const api = process.env.THREADSTORE_URL ?? 'http://localhost:4000';

export default defineConfig({
  root: import.meta.dirname,
  base: '/ui/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No inline scripts or styles: the server's Content-Security-Policy allows 'self' only.
    assetsInlineLimit: 0,
    sourcemap: false,
    // One bundle (React, react-markdown, graphql, graphql-ws): about 115 KiB as brotli.
    chunkSizeWarningLimit: 600,
  },
  server: {
    proxy: { '/graphql': { target: api, ws: true, changeOrigin: false } },
  },
});

/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';

export default defineConfig({
  // Relative asset URLs: the build works from any static host and sub-path.
  base: './',
  plugins: [
    react(),
    // Offline for classroom Wi-Fi: a Workbox service worker precaches the
    // whole app (engine wasm, worker, formula fonts; presets and lessons are
    // bundled into the scripts) on the first visit.
    VitePWA({
      registerType: 'autoUpdate',
      injectRegister: 'script',
      manifest: {
        name: 'AQM Lab',
        short_name: 'AQM Lab',
        description: 'Watch router queue management schemes at work, packet by packet.',
        theme_color: '#0072b2',
        background_color: '#ffffff',
        display: 'standalone',
        icons: [{ src: 'favicon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' }],
      },
      workbox: {
        globPatterns: ['**/*.{html,js,css,wasm,svg,woff2,woff,json}'],
        // Room for the engine's wasm (about 0.7 MB now) to grow past Workbox's 2 MiB default.
        maximumFileSizeToCacheInBytes: 16 * 1024 * 1024,
        // Share links live in the fragment, so every page URL is the app shell.
        navigateFallback: 'index.html',
        // The first visit's page is taken over at once, so it works offline without a second visit.
        clientsClaim: true,
        skipWaiting: true,
      },
    }),
  ],
  worker: { format: 'es' },
  build: { target: 'es2022', outDir: 'dist', emptyOutDir: true },
  // Presets live in the repository's top-level scenarios/ folder, shared with the CLI.
  server: { fs: { allow: ['..'] } },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
  test: { environment: 'node', include: ['src/**/*.test.ts'] },
});

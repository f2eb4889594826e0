import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { initialJsBudget } from './build/initial-js-budget';
import { precompress } from './build/precompress';

/**
 * The contract package's modules only declare schemas and constants, but Rollup cannot know that
 * `z.object(...)` at module level is pure. Marking them side-effect free lets the shell import a
 * constant without pulling every schema (and zod) into the first chunk; screens that validate
 * with zod load it lazily.
 */
function contractSideEffectFree(): Plugin {
  return {
    name: 'inkwell:contract-side-effect-free',
    transform(code, id) {
      if (/[\\/]packages[\\/]contract[\\/]src[\\/]/.test(id)) {
        return { code, map: null, moduleSideEffects: false };
      }
      return undefined;
    },
  };
}

// Relative asset URLs: the server injects <base href="{BASE_PATH}">, so one build serves any base path.
export default defineConfig(({ mode }) => ({
  base: './',
  resolve: {
    // react-router's package exports only point at its development build; production has its own.
    alias:
      mode === 'production'
        ? [
            { find: /^react-router$/, replacement: routerBuild('index.mjs') },
            { find: /^react-router\/dom$/, replacement: routerBuild('dom-export.mjs') },
          ]
        : [],
  },
  esbuild: { jsx: 'automatic' },
  plugins: [
    contractSideEffectFree(),
    // Issue 28: brotli and gzip copies of the build, served by the server as they are.
    precompress(),
    // Issue 7: the JS that renders `/` stays under 200 KB gzipped. Counted: the entry, and the lazy
    // chunks the first render of `/` loads at once, signed out or in (each with its static imports).
    // Not listed: what `/` renders only later (messages, dialogs, menus, the MyFiles panel) and the
    // code of its data loads (the signed-in history and its zod schema, fetched after mount).
    initialJsBudget({
      budgetKb: 200,
      routeModules: [
        // The index route.
        'src/features/chat/ChatScreen.tsx',
        // The input bar under it (lazy in ChatBottomBar) and the tools the routes plug into it.
        'src/features/chat/components/ChatInputBar.tsx',
        'src/features/documents/components/ChatUploadButton.tsx',
        'src/features/documents/components/TranslateTextButton.tsx',
      ],
    }),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    reportCompressedSize: true,
    chunkSizeWarningLimit: 600,
    rollupOptions: {
      onwarn(warning, warn) {
        // MUI and React Query mark modules "use client"; meaningless in a client-only bundle.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE' || warning.code === 'SOURCEMAP_ERROR') return;
        if (warning.message.includes('annotation that Rollup cannot interpret')) return;
        warn(warning);
      },
    },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080' },
  },
}));

function routerBuild(file: string): string {
  return fileURLToPath(
    new URL(`../../node_modules/react-router/dist/production/${file}`, import.meta.url),
  );
}

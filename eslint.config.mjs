import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'crypto', 'http', 'https', 'net', 'child_process', 'url', 'util', 'stream', 'events', 'worker_threads'];

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs' }, rules: { '@typescript-eslint/no-require-imports': 'off' } },
  // Layering guard (docs/architecture.md#layers): common/ is pure; services never touch Electron.
  {
    files: ['common/**/*.ts', 'common/**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'electron', message: 'common/ runs everywhere: no electron.' },
            { name: 'react', message: 'common/ runs everywhere: no react.' },
            ...nodeBuiltins.filter((n) => !n.includes('*')).map((name) => ({ name, message: 'common/ runs everywhere: no Node built-ins.' })),
          ],
          patterns: [
            { group: ['node:*'], message: 'common/ runs everywhere: no Node built-ins.' },
            { group: ['react-dom', 'react-dom/*', 'electron/*'], message: 'common/ runs everywhere.' },
            { group: ['**/main/**', '**/renderer/**', '**/preload/**'], message: 'Arrows point inward: common/ imports nothing outside it.' },
          ],
        },
      ],
    },
  },
  {
    files: ['main/services/**/*.ts', 'main/sandbox/**/*.ts', 'main/cli/**/*.ts', 'main/browser-host/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'Services are Electron-free so the CLI, the browser host and tests can run them.' }],
          patterns: [
            { group: ['electron/*', '**/main/electron/*'], message: 'Only the Electron host imports electron.' },
            { group: ['**/renderer/**'], message: 'Main never imports the renderer.' },
          ],
        },
      ],
    },
  },
  // Every IPC handler goes through the one module with the sender check (main/electron/ipc.ts).
  {
    files: ['main/**/*.ts', 'preload/**/*.ts', 'common/**/*.ts', 'renderer/**/*.ts', 'renderer/**/*.tsx'],
    ignores: ['main/electron/ipc.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value='electron'] > ImportSpecifier[imported.name='ipcMain']",
          message: 'Only main/electron/ipc.ts uses ipcMain: register calls through registerContractOnIpc (sender check + schema).',
        },
        {
          selector: "MemberExpression[property.name='ipcMain']",
          message: 'Only main/electron/ipc.ts uses ipcMain: register calls through registerContractOnIpc (sender check + schema).',
        },
      ],
    },
  },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'The renderer talks to main only through the contract bridge.' }],
          patterns: [
            { group: ['node:*'], message: 'The renderer runs in a sandboxed page: no Node built-ins.' },
            { group: ['**/main/**', '**/preload/**'], message: 'The renderer imports only common/ and itself.' },
          ],
        },
      ],
    },
  },
);

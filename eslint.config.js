// @ts-check
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'web/dist/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { languageOptions: { globals: globals.node } },
  // The staff console runs in the browser (its own tsconfig: web/tsconfig.json).
  { files: ['web/console/**/*.{ts,tsx}'], languageOptions: { globals: globals.browser } },
  // The web chat too (web/chat/tsconfig.json); its Vite configs run in Node.
  { files: ['web/chat/src/**/*.ts'], languageOptions: { globals: globals.browser } },
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // core/ is pure: no node: modules, no imports from outside it, no packages but zod.
    files: ['src/core/**/*.ts'],
    ignores: ['src/core/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^node:', message: 'core/ is pure: no node: modules.' },
            { regex: '^\\.\\./', message: 'core/ imports nothing from outside core/.' },
            { regex: '^(?!zod$)(?!\\./)', message: 'core/ depends on no package but zod.' },
          ],
        },
      ],
    },
  },
  {
    // Rewards are pure functions of a trajectory: they never import the lab (nor the apps above it).
    files: ['src/rewards/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(\\.\\./)+lab(/|$)', message: 'rewards/ never imports lab/: shared episode analysis lives in analysis/.' },
            { regex: '^(\\.\\./)+(cli|server|web)(/|$)', message: 'rewards/ imports no app (cli/, server/, web/).' },
          ],
        },
      ],
    },
  },
  {
    // The episode analysis sits below the lab and the rewards, beside the adapters: core/ and domains/ only.
    files: ['src/analysis/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(lab|rewards|runtime|store|llm|cli|server|web)(/|$)',
              message: 'analysis/ sits below lab/ and rewards/: it imports only core/ and domains/.',
            },
          ],
        },
      ],
    },
  },
  {
    // The runtime service sits below the lab, the rewards and the apps (DESIGN.md, layers).
    files: ['src/runtime/**/*.ts'],
    ignores: ['src/runtime/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(lab|rewards|analysis|cli|server|web)(/|$)',
              message: 'runtime/ imports no lab, rewards or app: they sit above it.',
            },
          ],
        },
      ],
    },
  },
  {
    // The adapters (storage, model clients, domains) sit just above core/.
    files: ['src/store/**/*.ts', 'src/llm/**/*.ts', 'src/domains/**/*.ts'],
    ignores: ['src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(runtime|lab|rewards|analysis|cli|server|web)(/|$)',
              message: 'adapters import only core/ and each other.',
            },
          ],
        },
      ],
    },
  },
  {
    // The lab runs the runtime; the apps compose the lab, never the other way round.
    files: ['src/lab/**/*.ts'],
    ignores: ['src/lab/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(\\.\\./)+(cli|server|web)(/|$)', message: 'lab/ imports no app (cli/, server/, web/).' }] },
      ],
    },
  },
);

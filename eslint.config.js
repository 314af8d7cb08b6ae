// @ts-check
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'web/dist/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { languageOptions: { globals: globals.node } },
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
);

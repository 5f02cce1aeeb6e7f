// ESLint's flat config: the recommended JavaScript and TypeScript rules, and this project's limits.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'measurements/', 'voices/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      // More than five positional parameters become one named object.
      'max-params': ['error', 5],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    files: ['lib/**/*.ts', 'bin/**/*.ts'],
    rules: {
      'max-len': ['error', { code: 160, ignoreUrls: true }],
      // A function a reader takes in at once: about 60 lines, 80 at most, blank lines and comments aside.
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
    },
  },
);

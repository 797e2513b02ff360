import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'lint-rules',
    include: ['test/**/*.test.ts'],
    // One real redocly run lints every fixture.
    hookTimeout: 60_000,
  },
});

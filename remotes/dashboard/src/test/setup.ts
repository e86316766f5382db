import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll } from 'vitest';

// Vitest runs without globals, so Testing Library cannot register its own cleanup
afterEach(cleanup);

// Files share one worker's page (`isolate: false`): what a runtime kept in storage (the exchange it connected, the
// theme) must not greet the next file's runtime as its own
beforeAll(() => {
  localStorage.clear();
  sessionStorage.clear();
});

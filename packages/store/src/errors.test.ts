import { describe, expect, it } from 'vitest';
import { STORE_ERROR_CODES, StoreError } from './errors.ts';

describe('store errors', () => {
  it('declares each code once, in the E.STORE namespace, with a one-line meaning', () => {
    for (const [code, meaning] of Object.entries(STORE_ERROR_CODES)) {
      expect(code).toMatch(/^E\.STORE\.[A-Z_]+$/);
      expect(meaning).toMatch(/^[A-Z].*\.$/);
      expect(meaning).not.toContain('\n');
    }
  });

  it('carries code, details and cause', () => {
    const cause = new Error('disk full');
    const error = new StoreError('E.STORE.CONNECT_FAILED', 'cannot open', { dataDir: '/x' }, { cause });
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: 'StoreError', code: 'E.STORE.CONNECT_FAILED', message: 'cannot open', details: { dataDir: '/x' }, cause });
  });
});

import { describe, expect, it } from 'vitest';
import { normalizeUrl } from './UrlForm';

describe('normalizeUrl', () => {
  it('adds https:// to a bare host and keeps http(s) addresses', () => {
    expect(normalizeUrl('example.com')).toBe('https://example.com/');
    expect(normalizeUrl(' http://127.0.0.1:8080/page ')).toBe('http://127.0.0.1:8080/page');
    expect(normalizeUrl('http://localhost:3000')).toBe('http://localhost:3000/');
  });

  it('refuses text that is not a web address', () => {
    for (const bad of [
      '',
      'not a url at all',
      'hello',
      'ftp://example.com',
      'javascript:alert(1)',
    ]) {
      expect(normalizeUrl(bad), bad).toBeNull();
    }
  });
});

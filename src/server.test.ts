import { describe, expect, it } from 'vitest';
import { listeningUrl } from './config.js';

describe('the URL the server prints and links with', () => {
  it('is localhost for a wildcard listen (Docker: -p 7070:7070 reaches localhost, never 0.0.0.0)', () => {
    expect(listeningUrl('0.0.0.0', 7070)).toBe('http://localhost:7070');
    expect(listeningUrl('::', 8080)).toBe('http://localhost:8080');
    expect(listeningUrl('[::]', 8080)).toBe('http://localhost:8080');
    expect(listeningUrl('', 7070)).toBe('http://localhost:7070');
  });

  it('is the address itself otherwise, IPv6 in brackets', () => {
    expect(listeningUrl('127.0.0.1', 7070)).toBe('http://127.0.0.1:7070');
    expect(listeningUrl('::1', 7070)).toBe('http://[::1]:7070');
    expect(listeningUrl('192.168.1.20', 9000)).toBe('http://192.168.1.20:9000');
    expect(listeningUrl('sandbox.local', 7070)).toBe('http://sandbox.local:7070');
  });
});

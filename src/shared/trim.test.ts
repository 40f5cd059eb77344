import { describe, expect, it } from 'vitest';
import { trimEnd, trimStart } from './trim.js';

const MB = 1024 * 1024;

describe('trimEnd / trimStart', () => {
  it('remove the run of one character at an end, as /c+$/ and /^c+/ do', () => {
    expect(trimEnd('1.500', '0')).toBe('1.5');
    expect(trimEnd('000', '0')).toBe('');
    expect(trimEnd('', '0')).toBe('');
    expect(trimEnd('http://h/a//', '/')).toBe('http://h/a');
    expect(trimEnd('105', '0')).toBe('105');
    expect(trimStart('007', '0')).toBe('7');
    expect(trimStart('000', '0')).toBe('');
    expect(trimStart('700', '0')).toBe('700');
  });

  it('take a megabyte run that does not reach the end (/0+$/ is quadratic on it)', () => {
    const text = `5.${'0'.repeat(MB)}1`;
    expect(trimEnd(text, '0')).toBe(text);
    expect(trimEnd(`${text}${'0'.repeat(MB)}`, '0')).toBe(text);
    expect(trimStart(`${'0'.repeat(MB)}1${'0'.repeat(MB)}`, '0')).toBe(`1${'0'.repeat(MB)}`);
    expect(trimEnd(`/${'/'.repeat(MB)}a`, '/')).toHaveLength(MB + 2);
  });
});

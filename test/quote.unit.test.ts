/**
 * Unit tests of quoting user input in messages (src/errors.ts): cut between code points,
 * "…" only when cut, lone surrogates shown as U+FFFD.
 */
import { describe, expect, it } from 'vitest';
import { quote, wellFormed } from '../src/errors.js';

describe('quote', () => {
  it('keeps short input whole and cuts long input after maxChars code points', () => {
    expect(quote('abc', 3)).toBe('"abc"');
    expect(quote('abcd', 3)).toBe('"abc…"');
    expect(quote('', 3)).toBe('""');
  });

  it('counts a surrogate pair as one code point and never splits it', () => {
    expect(quote('ab😀cd', 3)).toBe('"ab😀…"');
    expect(quote('ab😀', 3)).toBe('"ab😀"');
    expect(quote('😀😀😀', 2)).toBe('"😀😀…"');
    expect(quote(`${'x'.repeat(79)}😀y`, 80)).toBe(`"${'x'.repeat(79)}😀…"`);
  });

  it('shows lone surrogates as U+FFFD', () => {
    expect(wellFormed('a\uD83Db', 10)).toBe('a\uFFFDb');
    expect(wellFormed('\uDE00tail', 10)).toBe('\uFFFDtail');
    expect(wellFormed('end\uD83D', 10)).toBe('end\uFFFD');
    expect(/\p{Cs}/u.test(quote('\uD83D'.repeat(5), 3))).toBe(false);
  });
});

/**
 * The pure parts of search: tokens of stored text (search-text.ts), the query parser and its
 * rendering for FTS5 and PostgreSQL (search-query.ts), and snippets (snippet.ts). What the
 * databases find with them is test/search.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { parseSearchQuery, toFullTextQuery } from '../src/search/search-query.js';
import { itemText, MAX_TOKEN_LENGTH, searchTextOf } from '../src/search/search-text.js';
import { escapeHtml, SNIPPET_LENGTH, snippetOf } from '../src/search/snippet.js';

describe('search tokens', () => {
  it.each([
    ['Héllo WORLD, Straße', 'hello world strasse'],
    ['ΦΙΛΟΣ φίλος', 'φιλοσ φιλοσ'],
    ['東京都に', '東京 京都 都に に'],
    ['東', '東'],
    ['party 🎉🎉', 'party 🎉 🎉'],
    ['foo.bar_baz e-mail', 'foo bar baz e mail'],
    ['ｆｕｌｌ ﬁle ①', 'full file 1'],
    ['mixed東京abc', 'mixed 東京 京 abc'],
    ['  ...  ', null],
  ])('%j -> %j', (text, tokens) => {
    expect(searchTextOf(text)).toBe(tokens);
  });

  it('tokenizes ASCII text (its fast path) as the Unicode path does', () => {
    // A non-ASCII word after the text sends it down the general path, which must give the same
    // tokens plus that word's.
    const printable = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');
    let seed = 7;
    const random = () => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647;
    };
    const samples = [
      'Hello, World! x_y-z 42 MiXeD123 a\tb\nc',
      printable,
      `${'a'.repeat(MAX_TOKEN_LENGTH + 10)} ${'B9'.repeat(40)}`,
      ...Array.from({ length: 200 }, () =>
        Array.from({ length: 1 + Math.floor(random() * 80) }, () =>
          String.fromCharCode(Math.floor(random() * 128)),
        ).join(''),
      ),
    ];
    for (const text of samples) {
      const fast = searchTextOf(text);
      const general = searchTextOf(`${text} ü`);
      expect(general).toBe(fast === null ? 'u' : `${fast} u`);
    }
  });

  it('cuts long words to MAX_TOKEN_LENGTH', () => {
    expect(searchTextOf('x'.repeat(100))).toBe('x'.repeat(MAX_TOKEN_LENGTH));
  });

  it('takes the text of each item type that has one', () => {
    expect(itemText('message', { role: 'user', content: 'a', parts: [{ text: 'b' }] })).toBe(
      'a\nb',
    );
    expect(itemText('tool_call', { name: 'f', arguments: { p: 'x', n: 2, ok: true } })).toBe(
      'f\nx\n2',
    );
    expect(itemText('compaction', { summary: 's' })).toBeNull();
    expect(itemText('resource_event', { kind: 'k' })).toBeNull();
  });
});

describe('the query parser', () => {
  it('never passes user syntax through: every token is quoted', () => {
    const q = toFullTextQuery(parseSearchQuery('a OR "b c" -d e* NEAR(x) "open'));
    expect(q?.fts5).toBe('(("a" OR "b c") AND ("e" *) AND ("near x") AND ("open")) NOT ("d")');
    expect(q?.tsquery).toBe("('a' | ('b' & 'c')) & ('e':*) & (('near' & 'x')) & ('open') & !'d'");
    expect(q?.clauses).toEqual([{ any: [' a ', ' b c '] }, { any: [' near x '] }]);
  });

  it('has nothing to match for empty, punctuation-only and exclusion-only queries', () => {
    for (const query of ['', '   ', '*', '"', '""', '-', '-fox', '- - -', '()']) {
      expect(toFullTextQuery(parseSearchQuery(query))).toBeNull();
    }
  });

  it('reads OR as a word unless it joins two terms to match', () => {
    expect(parseSearchQuery('OR fox').clauses).toHaveLength(2);
    expect(parseSearchQuery('fox OR').clauses).toHaveLength(2);
    expect(parseSearchQuery('fox OR -dog').clauses).toHaveLength(2);
    expect(parseSearchQuery('fox OR dog').clauses).toHaveLength(1);
    expect(parseSearchQuery('fox or dog').clauses).toHaveLength(3);
  });

  it('matches CJK as substrings: bigram phrases, one character as a prefix', () => {
    expect(parseSearchQuery('東京都').clauses).toEqual([
      [{ tokens: ['東京', '京都'], prefix: false }],
    ]);
    expect(parseSearchQuery('東').clauses).toEqual([[{ tokens: ['東'], prefix: true }]]);
  });
});

describe('snippets', () => {
  it('escape HTML', () => {
    expect(escapeHtml(`<a href="x">&'</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;',
    );
  });

  it('mark words, prefixes and CJK substrings in the original text', () => {
    const terms = parseSearchQuery('cafe deplo* 京都').clauses.flat();
    expect(snippetOf('Le CAFÉ deployed <b> 東京都', terms)).toBe(
      'Le <mark>CAFÉ</mark> <mark>deployed</mark> &lt;b&gt; 東<mark>京都</mark>',
    );
  });

  it('mark a phrase where its words stand together, not each word anywhere', () => {
    const terms = parseSearchQuery('"hello world" 東').clauses.flat();
    expect(snippetOf('hello there, world: Hello World! 東京', terms)).toBe(
      'hello there, world: <mark>Hello World</mark>! <mark>東</mark>京',
    );
  });

  it('cut a long text around the first match', () => {
    const text = `${'a '.repeat(200)}needle ${'b '.repeat(200)}`;
    const snippet = snippetOf(text, parseSearchQuery('needle').clauses.flat());
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(snippet).toContain('<mark>needle</mark>');
  });
});

describe('snippets stay small and whole (review of issue 14)', () => {
  const termsOf = (q: string) => parseSearchQuery(q).clauses.flat();

  it('a query repeating a word 333 times is the word once (was 7 s and 655 MB per snippet)', () => {
    const repeated = termsOf('zq '.repeat(333).trim());
    expect(repeated).toHaveLength(1);
    const snippet = snippetOf('zq '.repeat(10_000), repeated);
    expect(snippet.startsWith('<mark>zq</mark> <mark>zq</mark>')).toBe(true);
  });

  it('a 1 MB text with a match everywhere reads only the window', () => {
    const text = 'mu '.repeat(350_000);
    const snippet = snippetOf(text, termsOf('mu'));
    expect(snippet.length).toBeLessThan(SNIPPET_LENGTH * 20);
    expect(snippet.endsWith('…')).toBe(true);
  });

  it('repeated and chained terms collapse: the parser keeps each once', () => {
    expect(parseSearchQuery('a a a b a').clauses).toHaveLength(2);
    const many = Array.from({ length: 200 }, (_, i) => `w${i}`).join(' OR ');
    expect(toFullTextQuery(parseSearchQuery(many))?.rankTerms).toHaveLength(16);
  });

  it('never cuts a surrogate pair at either end of the window', () => {
    const lone = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
    expect(snippetOf(`xxx${' 😀'.repeat(150)}`, termsOf('xxx'))).not.toMatch(lone);
    expect(snippetOf(`${'😀'.repeat(40)}ab hello`, termsOf('hello'))).not.toMatch(lone);
  });

  it('marks the right characters when folding changes lengths inside a run', () => {
    const text = 'e\u0301😀ﬁ surry';
    expect(snippetOf(text, termsOf('😀'))).toBe('e\u0301<mark>😀</mark>ﬁ surry');
    expect(snippetOf(text, termsOf('ﬁ'))).toBe('e\u0301😀<mark>ﬁ</mark> surry');
  });
});

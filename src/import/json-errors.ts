/**
 * Where and why JSON text is invalid, for transcript error messages that name a line and a
 * column ("invalid JSON at line 3, column 17: ..."). Pure; used by the transcript parsers.
 */

/**
 * "invalid JSON at line L, column C: <detail>" for text that JSON.parse rejected. Node 20's
 * messages give the position only for some errors, so the position comes from
 * jsonErrorOffset.
 * @param withLine false for one JSONL line, whose number the caller reports
 */
export function jsonErrorText(error: unknown, text: string, withLine = true): string {
  const message = error instanceof Error ? error.message : String(error);
  // V8 quotes the text around an unexpected token, newlines and all: keep the token only.
  const detail = message
    .replace(/ in JSON at position \d+.*$/s, '')
    .replace(/^(Unexpected token '.*?'), .*$/s, '$1');
  const offset = jsonErrorOffset(text);
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return withLine
    ? `invalid JSON at line ${line}, column ${column}: ${detail}`
    : `invalid JSON at column ${column}: ${detail}`;
}

/** A JSON number, true, false or null at the start of a string. */
const LITERAL = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/;

/** Thrown by the scanner at the offset where the text stops being valid JSON. */
class JsonSyntaxAt {
  constructor(readonly offset: number) {}
}

/** A recursive-descent JSON scanner that only finds where the text goes wrong. */
class JsonScanner {
  i = 0;
  constructor(private readonly text: string) {}

  fail(): never {
    throw new JsonSyntaxAt(this.i);
  }

  ws(): void {
    while (this.i < this.text.length && ' \t\n\r'.includes(this.text[this.i]!)) this.i++;
  }

  expect(c: string): void {
    if (this.text[this.i] !== c) this.fail();
    this.i++;
  }

  string(): void {
    const { text } = this;
    this.expect('"');
    while (this.i < text.length && text[this.i] !== '"') {
      if (text.charCodeAt(this.i) < 0x20) this.fail();
      if (text[this.i] !== '\\') {
        this.i++;
        continue;
      }
      this.i++;
      const escaped = text[this.i];
      if (escaped === 'u') {
        this.i++;
        for (let k = 0; k < 4; k++, this.i++) {
          if (!/[0-9a-fA-F]/.test(text[this.i] ?? '')) this.fail();
        }
      } else if (escaped !== undefined && '"\\/bfnrt'.includes(escaped)) this.i++;
      else this.fail();
    }
    this.expect('"');
  }

  /** The members of an object or the elements of an array, after its opening bracket. */
  members(close: '}' | ']'): void {
    this.i++;
    this.ws();
    if (this.text[this.i] === close) {
      this.i++;
      return;
    }
    for (;;) {
      this.ws();
      if (close === '}') {
        this.string();
        this.ws();
        this.expect(':');
      }
      this.value();
      this.ws();
      if (this.text[this.i] !== ',') break;
      this.i++;
    }
    this.expect(close);
  }

  value(): void {
    this.ws();
    const c = this.text[this.i];
    if (c === '{') this.members('}');
    else if (c === '[') this.members(']');
    else if (c === '"') this.string();
    else {
      const literal = LITERAL.exec(this.text.slice(this.i, this.i + 400));
      if (!literal) this.fail();
      this.i += literal[0].length;
    }
  }
}

/**
 * The offset of the first character where `text` stops being valid JSON (text.length when it
 * ends too early), for error messages: a plain recursive descent, run only on text that
 * JSON.parse rejected.
 */
export function jsonErrorOffset(text: string): number {
  const scanner = new JsonScanner(text);
  try {
    scanner.value();
    scanner.ws();
    if (scanner.i < text.length) scanner.fail();
  } catch (error) {
    if (error instanceof JsonSyntaxAt) return Math.min(error.offset, text.length);
    throw error;
  }
  return text.length;
}

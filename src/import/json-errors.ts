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

/**
 * The offset of the first character where `text` stops being valid JSON (text.length when it
 * ends too early), for error messages: a plain recursive descent, run only on text that
 * JSON.parse rejected.
 */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const fail = (): never => {
    throw i;
  };
  const expect = (c: string) => {
    if (text[i] !== c) fail();
    i++;
  };
  const string = () => {
    expect('"');
    while (i < text.length && text[i] !== '"') {
      const c = text.charCodeAt(i);
      if (c < 0x20) fail();
      if (text[i] === '\\') {
        i++;
        if (text[i] === 'u') {
          i++;
          for (let k = 0; k < 4; k++, i++) if (!/[0-9a-fA-F]/.test(text[i] ?? '')) fail();
        } else if (text[i] !== undefined && '"\\/bfnrt'.includes(text[i]!)) i++;
        else fail();
      } else i++;
    }
    expect('"');
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        string();
        ws();
        expect(':');
        value();
        ws();
        if (text[i] === ',') i++;
        else {
          expect('}');
          return;
        }
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ',') i++;
        else {
          expect(']');
          return;
        }
      }
    }
    if (c === '"') {
      string();
      return;
    }
    const literal = LITERAL.exec(text.slice(i, i + 400));
    if (!literal) fail();
    i += literal![0].length;
  };
  try {
    value();
    ws();
    if (i < text.length) fail();
  } catch (offset) {
    if (typeof offset === 'number') return Math.min(offset, text.length);
    throw offset;
  }
  return text.length;
}

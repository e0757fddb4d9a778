import { describe, expect, it } from 'vitest';
import { applyEdits, includeUsage, setMember, withoutMember } from './body-edit';

const open = (text: string) => Buffer.from(text).indexOf(0x7b);
const setModel = (text: string, model: string) => {
  const body = Buffer.from(text);
  return applyEdits(body, setMember(body, open(text), 'model', JSON.stringify(model))).toString();
};
const without = (text: string, key = 'model') => {
  const body = Buffer.from(text);
  return withoutMember(body, open(text), key, JSON.parse(text) as Record<string, unknown>).toString();
};
const withUsage = (text: string) => {
  const body = Buffer.from(text);
  return applyEdits(body, includeUsage(body, open(text))).toString();
};

/** A seeded generator, so a failure names the case that broke. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/**
 * JSON text for a random value with random spacing, keys sometimes written with escapes, strings
 * holding quotes, braces, backslashes and non-ASCII characters, and integers past 2^53.
 */
function randomJson(next: () => number, depth: number): string {
  const space = () => [' ', '', '\n', '\t', '  \r\n'][Math.floor(next() * 5)]!;
  const pick = Math.floor(next() * (depth > 3 ? 5 : 7));
  if (pick === 0) return String(Math.floor(next() * 1000) - 500);
  if (pick === 1)
    return ['9007199254740993', '1.50', '-0.0e+2', '123456789012345678901234567890'][Math.floor(next() * 4)]!;
  if (pick === 2) return ['true', 'false', 'null'][Math.floor(next() * 3)]!;
  if (pick === 3)
    return JSON.stringify(
      ['a"b', '{x}', 'c\\d', 'é ✓ 😀', '[1,2]', 'model', 'ends in \\', '\\"'][Math.floor(next() * 8)],
    );
  if (pick === 4) return '"\\u0041\\n\\"}"';
  if (pick === 5) {
    const items = Array.from(
      { length: Math.floor(next() * 4) },
      () => space() + randomJson(next, depth + 1) + space(),
    );
    return `[${items.join(',')}]`;
  }
  const keys = ['model', 'stream_options', 'include_usage', 'messages', 'seed', 'a{', 'b"'];
  const members = Array.from({ length: Math.floor(next() * 5) }, () => {
    let key = JSON.stringify(keys[Math.floor(next() * keys.length)]);
    if (next() < 0.2) key = key.replace('e', '\\u0065');
    return `${space()}${key}${space()}:${space()}${randomJson(next, depth + 1)}${space()}`;
  });
  return `{${members.join(',')}${members.length === 0 ? space() : ''}}`;
}

function randomObjectJson(next: () => number): string {
  for (;;) {
    const text = randomJson(next, 0);
    if (text.startsWith('{')) return (next() < 0.5 ? ' \n' : '') + text;
  }
}

describe('body edits', () => {
  it("sets the model in the caller's bytes: every other byte stays as sent", () => {
    const body = '{ "seed" : 9007199254740993,\n"model":"alias" , "x":"\\u00e9"}';
    expect(setModel(body, 'gpt-4o')).toBe('{ "seed" : 9007199254740993,\n"model":"gpt-4o" , "x":"\\u00e9"}');
    // No model: put first; an empty object gets no comma.
    expect(setModel('{"a":1}', 'm')).toBe('{"model":"m","a":1}');
    expect(setModel('{ }', 'm')).toBe('{"model":"m" }');
    // Repeated and escaped keys are all set (JSON.parse keeps the last).
    expect(setModel('{"model":"a","mod\\u0065l":"b"}', 'm')).toBe('{"model":"m","mod\\u0065l":"m"}');
    // A key named like the member inside a string or a nested object is not touched.
    expect(setModel('{"x":{"model":"n"},"y":"\\"model\\":1"}', 'm')).toBe(
      '{"model":"m","x":{"model":"n"},"y":"\\"model\\":1"}',
    );
    expect(setModel('{"model":"a"}', 'q"\\')).toBe('{"model":"q\\"\\\\"}');
  });

  it("asks for usage inside the caller's stream options, keeping theirs", () => {
    expect(withUsage('{"stream":true}')).toBe('{"stream_options":{"include_usage":true},"stream":true}');
    expect(withUsage('{"stream":true,"stream_options":null}')).toBe(
      '{"stream":true,"stream_options":{"include_usage":true}}',
    );
    expect(withUsage('{"stream_options":{ "other" : 1 },"stream":true}')).toBe(
      '{"stream_options":{"include_usage":true, "other" : 1 },"stream":true}',
    );
    expect(withUsage('{"stream_options":{"include_usage":false},"stream":true}')).toBe(
      '{"stream_options":{"include_usage":true},"stream":true}',
    );
    expect(withUsage('{"stream_options":{},"stream":true}')).toBe(
      '{"stream_options":{"include_usage":true},"stream":true}',
    );
    expect(withUsage('{"stream_options":[1],"stream":true}')).toBe(
      '{"stream_options":{"include_usage":true},"stream":true}',
    );
  });

  it("takes a member out of the caller's bytes with one comma next to it", () => {
    expect(without('{"model":"m","provider":{"sort":"price"},"seed":9007199254740993}', 'provider')).toBe(
      '{"model":"m","seed":9007199254740993}',
    );
    expect(without('{ "a":1 , "provider" : null }', 'provider')).toBe('{ "a":1  }');
    expect(without('{"provider":1}', 'provider')).toBe('{}');
    expect(without('{"a":{"provider":1}}', 'provider')).toBe('{"a":{"provider":1}}');
    // Repeated at the end: the edit would not parse, so the body is re-serialised without it.
    expect(JSON.parse(without('{"a":1,"provider":1,"provider":2}', 'provider'))).toEqual({ a: 1 });
  });

  it('means what the parsed and re-serialised body meant, for 3,000 random bodies', () => {
    for (let seed = 1; seed <= 3000; seed++) {
      const next = random(seed);
      const text = randomObjectJson(next);
      const parsed = JSON.parse(text) as Record<string, unknown>;
      const modelled = setModel(text, 'up-model');
      expect(JSON.parse(modelled), `seed ${seed}: ${text}`).toEqual({ ...parsed, model: 'up-model' });
      const options = parsed.stream_options;
      const isObject = options !== null && typeof options === 'object' && !Array.isArray(options);
      const expected = { ...parsed, stream_options: { ...(isObject ? options : {}), include_usage: true } };
      expect(JSON.parse(withUsage(text)), `seed ${seed}: ${text}`).toEqual(expected);
      const { model: _model, ...rest } = parsed;
      // Compared as JSON text: a re-serialised body (a name repeated last) writes -0 as 0.
      expect(JSON.stringify(JSON.parse(without(text))), `seed ${seed}: ${text}`).toBe(JSON.stringify(rest));
      // The unwalked insertion, where the invoke handler uses it: no options, other members.
      if (options === undefined && Object.keys(parsed).length > 0) {
        const body = Buffer.from(text);
        const inserted = applyEdits(body, includeUsage(body, open(text), true)).toString();
        expect(JSON.parse(inserted), `seed ${seed}: ${text}`).toEqual(expected);
      }
    }
  });
});

// The strings and loose fields of the view's property tests (acpArbitraries.ts): what an agent
// may legally put where the schema says "string" or "unknown": malformed %-escapes in URIs, odd
// paths, any Unicode (lone surrogates too), markup, huge text, terminal escapes, and junk in every
// `_meta`.
import fc from 'fast-check';

export const wire = <T>(a: fc.Arbitrary<T>): fc.Arbitrary<T> => a.map((v) => JSON.parse(JSON.stringify(v)) as T);
export const nullable = <T>(a: fc.Arbitrary<T>) => fc.oneof(a, fc.constant(null));
/** A record whose keys other than `required` may be absent. */
export const rec = <R = Record<string, unknown>>(model: Record<string, fc.Arbitrary<unknown>>, required: string[]) =>
  fc.record(model, { requiredKeys: required as never[] }) as unknown as fc.Arbitrary<R>;

export const ids = fc.constantFrom('c1', 'c2', 'c3', 'c 4/<b>', '');
export const terminalIds = fc.constantFrom('T1', 'T2', 'AT');

export const junk = fc.jsonValue({ maxDepth: 2 });

const edgeText = fc.constantFrom(
  '',
  ' ',
  '\n\n',
  '\uD800',
  'a\uDC00b',
  '\u202Egnp.exe',
  '\u2028',
  '\0',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 👩‍👩‍👧 é',
  '<img src=x onerror=alert(1)>',
  '<script>alert(1)</script>',
  '[x](/tmp/report%.txt#L3) [y](/a\u2028b) [z](javascript:alert(1)) [c](command:x)',
  '![i](data:image/png;base64,AAAA) ![r](https://example.com/t.png)',
  '```\nunclosed',
  '| a | b |\n|---|---|\n| 1 |',
  '1) x\n\n- [ ] task\n\n> quote\n\n# h\n\n---',
  '&amp; &#0; &#xD800; &bogus;',
);
const mdPiece = fc.constantFrom(
  '# ',
  '* ',
  '`',
  '```\n',
  '[',
  '](',
  ')',
  '**',
  '_',
  '~~',
  '\\',
  '\n',
  '\n\n',
  '<',
  '>',
  '|',
);
/** Huge text: over the view's markdown and resource limits. */
const huge = fc
  .tuple(fc.constantFrom('a', 'ab\n', 'é ', '\u{1F600}', '%'), fc.integer({ min: 100_001, max: 120_000 }))
  .map(([unit, n]) => unit.repeat(Math.ceil(n / unit.length)));
export const text = fc.oneof(
  { weight: 6, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  {
    weight: 3,
    arbitrary: fc.array(fc.oneof(mdPiece, fc.string({ maxLength: 6 })), { maxLength: 12 }).map((a) => a.join('')),
  },
  { weight: 3, arbitrary: edgeText },
  { weight: 1, arbitrary: huge },
);

const uriPiece = fc.constantFrom('%', '%2', '%ZZ', '%E0%A4', '%C3%A9', '%00', '%2F', '%25', '#', '#L', '#L12', '#L3-9');
export const uri = fc.oneof(
  fc.constantFrom(
    'file:///tmp/report%.txt',
    'file://[oops/x.txt',
    'file:',
    'file:///C:/a%20b/c.ts#L12',
    'file:///a#L99999999999999999999',
    'file:///%F0%9F%98',
    'https://example.com/%%',
    'mailto:%',
    'untitled:Untitled-1',
    'javascript:alert(1)',
    '',
  ),
  fc
    .tuple(
      fc.constantFrom('file://', 'file:///', 'https://h/', '', '/', 'zed://'),
      fc.array(fc.oneof(uriPiece, fc.string({ unit: 'binary', maxLength: 6 })), { maxLength: 8 }),
    )
    .map(([scheme, parts]) => scheme + parts.join('')),
  fc.webUrl(),
);

export const path = fc.oneof(
  fc.constantFrom(
    '',
    '/',
    '/w',
    '/tmp/report%.txt',
    'C:\\Users\\me\\a.ts',
    '\\\\server\\share\\x',
    'relative/x.ts',
    `/w/${'deep/'.repeat(200)}x.ts`,
    '/w/a b/ü.ts',
    '/w/line\nbreak.ts',
    '/w/a/',
    'file:///w/a.ts',
  ),
  fc.string({ maxLength: 20 }),
  fc.tuple(fc.constantFrom('/w/', '/', ''), fc.string({ unit: 'binary', maxLength: 12 })).map(([a, b]) => a + b),
);

export const ansi = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '\x1b[31m',
        '\x1b[0m',
        '\x1b[38;5;300m',
        '\x1b[38;2;999;-1;xm',
        '\x1b[99999999B',
        '\x1b[99999;99999H',
        '\x1b[999999999C',
        '\x1b[2J',
        '\x1b[K',
        '\x1b[3A',
        '\x1b]0;title\x07',
        '\x1b[?25l',
        '\x1b',
        '\x1b[',
        '\r',
        '\n',
        '\b',
        '\t',
      ),
      fc.string({ unit: 'binary', maxLength: 10 }),
    ),
    { maxLength: 20 },
  )
  .map((a) => a.join(''));

/** `_meta`: absent, null, anything, or the keys the view and the store read, holding anything. */
export const meta = fc.option(
  fc.oneof(
    fc.dictionary(fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('__proto__', 'constructor', 'tandem')), junk, {
      maxKeys: 4,
    }),
    rec(
      {
        claudeCode: fc.oneof(
          junk,
          rec({ toolName: fc.oneof(fc.constantFrom('Read', 'Bash', 'Grep', 'Task', 'mcp__acp__Edit'), junk) }, []),
          rec({ parentToolUseId: fc.oneof(ids, junk) }, []),
        ),
        tandem: fc.oneof(
          junk,
          rec({ group: fc.oneof(text, junk), tool: fc.oneof(text, junk), kind: junk, args: junk }, []),
        ),
        terminal_info: rec({ terminal_id: fc.oneof(terminalIds, junk) }, []),
        terminal_output: rec({ terminal_id: fc.oneof(terminalIds, junk), data: fc.oneof(ansi, junk) }, []),
        terminal_exit: rec({ terminal_id: terminalIds, exit_code: junk, signal: junk }, []),
      },
      [],
    ),
  ),
  { nil: undefined },
);
export const metaOrNull = fc.oneof(meta, fc.constant(null));

export const annotations = nullable(
  rec(
    {
      audience: fc.array(fc.constantFrom('user', 'assistant')),
      priority: nullable(fc.double({ noNaN: true, noDefaultInfinity: true })),
      lastModified: nullable(text),
      _meta: metaOrNull,
    },
    [],
  ),
);
export const base64 = fc.oneof(fc.base64String({ maxLength: 40 }), fc.string({ maxLength: 20 }));
export const mime = fc.oneof(
  fc.constantFrom('image/png', 'image/svg+xml', 'image/jpeg', 'audio/wav', 'text/html', ''),
  text,
);

// The shared elicitation validator (webview before sending, host before answering the agent)
// and the elicitationAnswer intent's shape check.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ElicitationSchema } from '@agentclientprotocol/sdk';
import { defaultsFor, fieldsOf, httpHost } from '../../../src/shared/elicitation';
import { elicitationIssues, validateElicitationContent } from '../../../src/shared/elicitationValidation';
import { parseFromWebview } from '../../../src/shared/parseFromWebview';

const schema = {
  type: 'object',
  title: 'Profile',
  properties: {
    name: { type: 'string', title: 'Name', description: 'Your name', minLength: 2, maxLength: 5, default: 'Ada' },
    code: { type: 'string', title: 'Code', pattern: '^[A-Z]{3}$' },
    email: { type: 'string', title: 'Email', format: 'email' },
    site: { type: 'string', format: 'uri' },
    born: { type: 'string', title: 'Born', format: 'date' },
    at: { type: 'string', title: 'When', format: 'date-time' },
    age: { type: 'integer', title: 'Age', minimum: 0, maximum: 150, default: 36 },
    ratio: { type: 'number', title: 'Ratio', minimum: 0.5, maximum: 1 },
    ok: { type: 'boolean', title: 'OK' },
    color: { type: 'string', title: 'Color', enum: ['red', 'green'], default: 'green' },
    size: {
      type: 'string',
      title: 'Size',
      oneOf: [
        { const: 's', title: 'Small' },
        { const: 'l', title: 'Large', description: 'big' },
      ],
    },
    tags: {
      type: 'array',
      title: 'Tags',
      items: { type: 'string', enum: ['a', 'b', 'c'] },
      minItems: 1,
      maxItems: 2,
      default: ['a'],
    },
    langs: {
      type: 'array',
      title: 'Languages',
      items: {
        anyOf: [
          { const: 'ts', title: 'TypeScript' },
          { const: 'rs', title: 'Rust' },
        ],
      },
    },
  },
  required: ['name', 'age', 'tags'],
} as ElicitationSchema;

const errs = (content: unknown) => validateElicitationContent(schema, content);

test('fields: kinds, titles, options, constraints in schema order', () => {
  const f = fieldsOf(schema);
  assert.deepEqual(
    f.map((x) => [x.name, x.kind]),
    [
      ['name', 'text'],
      ['code', 'text'],
      ['email', 'text'],
      ['site', 'text'],
      ['born', 'text'],
      ['at', 'text'],
      ['age', 'integer'],
      ['ratio', 'number'],
      ['ok', 'boolean'],
      ['color', 'select'],
      ['size', 'select'],
      ['tags', 'multiselect'],
      ['langs', 'multiselect'],
    ],
  );
  assert.equal(f.find((x) => x.name === 'site')!.title, 'site', 'the name stands in for a missing title');
  const size = f.find((x) => x.name === 'size')!;
  assert.ok(size.kind === 'select');
  assert.deepEqual(size.options, [
    { value: 's', title: 'Small' },
    { value: 'l', title: 'Large', description: 'big' },
  ]);
  assert.ok(f.find((x) => x.name === 'name')!.required);
  assert.ok(!f.find((x) => x.name === 'code')!.required);
  assert.deepEqual(
    fieldsOf({ type: 'object', properties: { x: { type: '_custom' } } } as never).map((x) => x.kind),
    ['unsupported'],
  );
  assert.deepEqual(fieldsOf(undefined), []);
  assert.deepEqual(fieldsOf({ properties: 'nonsense' } as never), []);
});

test('defaults come from the schema; booleans start false', () => {
  assert.deepEqual(defaultsFor(schema), { name: 'Ada', age: 36, ok: false, color: 'green', tags: ['a'] });
  assert.deepEqual(errs(defaultsFor(schema)), []);
});

test('required, types, lengths and ranges give one clear message per field', () => {
  assert.deepEqual(errs({}), ['"Name" is required.', '"Age" is required.', '"Tags" is required.']);
  assert.deepEqual(
    errs({ name: '', age: 3, tags: ['a'] }),
    ['"Name" is required.'],
    'an empty required text counts as missing',
  );
  const base = { name: 'Ada', age: 3, tags: ['a'] };
  const one = (extra: Record<string, unknown>) => errs({ ...base, ...extra });
  assert.deepEqual(one({ name: 'A' }), ['"Name" must be at least 2 characters.']);
  assert.deepEqual(one({ name: 'Adalovelace' }), ['"Name" must be at most 5 characters.']);
  assert.deepEqual(one({ name: '😀😀' }), [], 'lengths count characters, not UTF-16 units');
  assert.deepEqual(one({ name: 7 }), ['"Name" must be text.']);
  assert.deepEqual(one({ age: 3.5 }), ['"Age" must be a whole number.']);
  assert.deepEqual(one({ age: -1 }), ['"Age" must be at least 0.']);
  assert.deepEqual(one({ age: 151 }), ['"Age" must be at most 150.']);
  assert.deepEqual(one({ age: '3' }), ['"Age" must be a number.']);
  assert.deepEqual(one({ age: Number.NaN }), ['"Age" must be a number.']);
  assert.deepEqual(one({ ratio: 0.2 }), ['"Ratio" must be at least 0.5.']);
  assert.deepEqual(one({ ratio: 0.75 }), []);
  assert.deepEqual(one({ ok: 'yes' }), ['"OK" must be true or false.']);
  assert.deepEqual(one({ extra: 1 }), ['"extra" is not a field of this form.']);
  assert.deepEqual(errs(null), ['The answer must be an object of field values.']);
  assert.deepEqual(errs([1]), ['The answer must be an object of field values.']);
});

test('pattern, formats, enums and multi-select', () => {
  const base = { name: 'Ada', age: 3, tags: ['a'] };
  const one = (extra: Record<string, unknown>) => errs({ ...base, ...extra });
  assert.deepEqual(one({ code: 'ABC' }), []);
  assert.deepEqual(one({ code: 'AB1' }), ['"Code" does not have the expected form (pattern ^[A-Z]{3}$).']);
  assert.deepEqual(one({ email: 'ada@example.com' }), []);
  assert.deepEqual(one({ email: 'ada@example' }), ['"Email" must be an email address.']);
  assert.deepEqual(one({ email: 'a b@example.com' }), ['"Email" must be an email address.']);
  assert.deepEqual(one({ site: 'https://example.com/x' }), []);
  assert.deepEqual(one({ site: 'example.com' }), ['"site" must be a URI (such as https://example.com).']);
  assert.deepEqual(one({ born: '1815-12-10' }), []);
  assert.deepEqual(one({ born: '2023-02-29' }), ['"Born" must be a date (YYYY-MM-DD).']);
  assert.deepEqual(one({ born: '10/12/1815' }), ['"Born" must be a date (YYYY-MM-DD).']);
  assert.deepEqual(one({ at: '2025-01-31T14:00:00Z' }), []);
  assert.deepEqual(one({ at: '2025-01-31T14:00:00.123+02:00' }), []);
  assert.equal(one({ at: '2025-01-31' }).length, 1);
  assert.deepEqual(one({ color: 'red' }), []);
  assert.deepEqual(one({ color: 'blue' }), ['"Color" must be one of: red, green.']);
  assert.deepEqual(one({ size: 'l' }), []);
  assert.deepEqual(one({ size: 'm' }), ['"Size" must be one of: Small, Large.']);
  assert.deepEqual(one({ tags: [] }), ['"Tags" needs at least 1 choice.']);
  assert.deepEqual(one({ tags: ['a', 'b', 'c'] }), ['"Tags" allows at most 2 choices.']);
  assert.deepEqual(one({ tags: ['a', 'z'] }), ['"Tags": "z" is not one of the offered choices.']);
  assert.deepEqual(one({ tags: ['a', 'a'] }), ['"Tags" lists a choice twice.']);
  assert.deepEqual(one({ tags: 'a' }), ['"Tags" must be a list of choices.']);
  assert.deepEqual(one({ langs: ['rs'] }), []);
  assert.deepEqual(one({ langs: ['py'] }), ['"Languages": "py" is not one of the offered choices.']);
});

test('problems name their field; an invalid pattern constrains nothing; unsupported required fields cannot be satisfied', () => {
  assert.deepEqual(elicitationIssues(schema, { name: 'A', age: 3, tags: ['a'] }), [
    { field: 'name', message: '"Name" must be at least 2 characters.' },
  ]);
  const bad = { type: 'object', properties: { x: { type: 'string', pattern: '([' } } } as ElicitationSchema;
  assert.deepEqual(validateElicitationContent(bad, { x: 'anything' }), []);
  const custom = { type: 'object', properties: { x: { type: '_color', title: 'Colour' } }, required: ['x'] } as never;
  assert.deepEqual(validateElicitationContent(custom, {}), ['"Colour" is required.']);
  assert.deepEqual(validateElicitationContent(custom, { x: '#fff' }), [
    '"Colour" has a field type Tandem cannot show (_color).',
  ]);
  assert.deepEqual(validateElicitationContent({ type: 'object', properties: {} } as never, {}), []);
});

test('httpHost: only http(s) URLs have a host to show', () => {
  assert.equal(httpHost('https://login.example.com:8443/a?b'), 'login.example.com:8443');
  assert.equal(httpHost('http://x.test'), 'x.test');
  assert.equal(httpHost('file:///etc/passwd'), undefined);
  assert.equal(httpHost('javascript:alert(1)'), undefined);
  assert.equal(httpHost('not a url'), undefined);
});

test('elicitationAnswer intent: shape checked, content only with accept', () => {
  assert.deepEqual(
    parseFromWebview({
      type: 'elicitationAnswer',
      requestId: 'elic-1',
      action: 'accept',
      content: { a: 'x', n: 2, b: true, l: ['p'] },
    }),
    { type: 'elicitationAnswer', requestId: 'elic-1', action: 'accept', content: { a: 'x', n: 2, b: true, l: ['p'] } },
  );
  assert.deepEqual(parseFromWebview({ type: 'elicitationAnswer', requestId: 'elic-1', action: 'decline' }), {
    type: 'elicitationAnswer',
    requestId: 'elic-1',
    action: 'decline',
  });
  assert.deepEqual(parseFromWebview({ type: 'elicitationAnswer', requestId: 'elic-1', action: 'accept' }), {
    type: 'elicitationAnswer',
    requestId: 'elic-1',
    action: 'accept',
  });
  const bad = [
    { type: 'elicitationAnswer', requestId: '', action: 'accept' },
    { type: 'elicitationAnswer', requestId: 'elic-1', action: 'maybe' },
    { type: 'elicitationAnswer', requestId: 'elic-1', action: 'decline', content: {} },
    { type: 'elicitationAnswer', requestId: 'elic-1', action: 'accept', content: [] },
    { type: 'elicitationAnswer', requestId: 'elic-1', action: 'accept', content: { a: { nested: 1 } } },
    { type: 'elicitationAnswer', requestId: 'elic-1', action: 'accept', content: { a: [1] } },
    { type: 'elicitationAnswer', requestId: 'elic-1', action: 'accept', content: { a: Infinity } },
    { type: 'elicitationAnswer', requestId: 'elic-1', action: 'accept', content: JSON.parse('{"__proto__": "x"}') },
    { type: 'elicitationAnswer', requestId: 'elic-1', action: 'accept', extra: 1 },
  ];
  for (const b of bad) assert.equal(typeof parseFromWebview(b), 'string', JSON.stringify(b));
});

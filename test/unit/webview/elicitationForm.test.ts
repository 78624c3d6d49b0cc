// The elicitation form as rendered from a schema (server-side render), and the content it sends.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderToString } from 'preact-render-to-string';
import { h } from 'preact';
import { ElicitationCards } from '../../../src/webview/components/ElicitationForm';
import { contentOf } from '../../../src/webview/elicitationValues';
import { fieldsOf } from '../../../src/shared/elicitation';
import { validateElicitationContent } from '../../../src/shared/elicitationValidation';
import { emptySnapshot } from '../../../src/shared/sessionModel';

const schema = {
  type: 'object' as const,
  title: 'Deploy',
  properties: {
    name: { type: 'string' as const, title: 'Name', description: 'Who deploys', default: 'Ada' },
    count: { type: 'integer' as const, title: 'Count', minimum: 1 },
    dry: { type: 'boolean' as const, title: 'Dry run', default: true },
    env: {
      type: 'string' as const,
      title: 'Environment',
      oneOf: [
        { const: 'stg', title: 'Staging' },
        { const: 'prod', title: 'Production' },
      ],
    },
    regions: { type: 'array' as const, title: 'Regions', items: { type: 'string' as const, enum: ['eu', 'us'] } },
    odd: { type: '_custom', title: 'Odd' },
  },
  required: ['name', 'env'],
};

test('a form renders one control per field, with titles, descriptions, defaults and the three actions', () => {
  const s = emptySnapshot('s1');
  s.elicitations = [
    { requestId: 'elic-1', mode: 'form', message: 'Deploy where?', requestedSchema: schema as never, at: 1 },
    {
      requestId: 'elic-2',
      mode: 'url',
      message: 'Sign in',
      url: 'https://example.com/x',
      host: 'example.com',
      elicitationId: 'e',
      at: 2,
    },
  ];
  const html = renderToString(h(ElicitationCards, { session: s }));
  assert.match(html, /data-testid="elicitation-form"[^>]*data-request-id="elic-1"/);
  assert.match(html, /Deploy where\?/);
  assert.match(html, /<label for="elic-elic-1-name"[^>]*>Name/);
  assert.match(html, /id="elic-elic-1-name-desc"[^>]*>Who deploys/);
  assert.match(html, /value="Ada"/);
  assert.match(html, /type="number"[^>]*step="1"[^>]*min="1"|type="number"[^>]*min="1"/);
  assert.match(html, /type="checkbox"[^>]*checked/);
  assert.match(
    html,
    /<option[^>]*>Choose…<\/option><option value="stg">Staging<\/option><option value="prod">Production<\/option>/,
  );
  assert.match(html, /<legend[^>]*>Regions/);
  assert.match(html, /cannot show a field of type “_custom”/);
  for (const id of ['elicitation-submit', 'elicitation-decline', 'elicitation-cancel'])
    assert.match(html, new RegExp(`data-testid="${id}"`));
  assert.match(html, /data-testid="elicitation-url"[^>]*data-request-id="elic-2"/);
  assert.match(html, /data-testid="elicitation-host">example.com</);
});

test('content: empty text and numbers are left out, numbers parsed, booleans always sent', () => {
  const fields = fieldsOf(schema as never);
  assert.deepEqual(contentOf(fields, { name: 'Ada', count: '', dry: true, env: '', regions: [] }), {
    name: 'Ada',
    dry: true,
  });
  const c = contentOf(fields, { name: 'Ada', count: ' 3 ', dry: false, env: 'prod', regions: ['us'] });
  assert.deepEqual(c, { name: 'Ada', count: 3, dry: false, env: 'prod', regions: ['us'] });
  assert.deepEqual(validateElicitationContent(schema as never, c), []);
  assert.deepEqual(
    validateElicitationContent(
      schema as never,
      contentOf(fields, { name: '', count: 'x', dry: false, env: '', regions: [] }),
    ),
    ['"Name" is required.', '"Count" must be a number.', '"Environment" is required.'],
  );
});

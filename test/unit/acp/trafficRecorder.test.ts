import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { redactSecrets, TrafficRecorder } from '../../../src/acp/trafficRecorder';

test('redactSecrets hides tokens in headers, env and fields, keeps the rest', () => {
  const msg = {
    jsonrpc: '2.0',
    id: 1,
    method: 'session/new',
    params: {
      cwd: '/w',
      mcpServers: [
        {
          type: 'http',
          name: 'tandem',
          url: 'http://127.0.0.1:1/mcp',
          headers: [
            { name: 'Authorization', value: 'Bearer s3cret' },
            { name: 'X-Trace', value: 'ok' },
          ],
        },
        {
          name: 'gh',
          command: 'gh-mcp',
          args: [],
          env: [
            { name: 'GITHUB_TOKEN', value: 'ghp_s3cret' },
            { name: 'LANG', value: 'C' },
          ],
        },
      ],
      _meta: { apiKey: 's3cret', nested: { password: 'pw' } },
    },
  };
  const text = JSON.stringify(redactSecrets(msg));
  assert.ok(!text.includes('s3cret'), text);
  assert.ok(!text.includes('"pw"'));
  // MCP server headers and env are all redacted (credentials hide under any name); their names stay.
  assert.ok(text.includes('X-Trace') && text.includes('"LANG","value":"[redacted]"') && text.includes('gh-mcp'));
});

test('TrafficRecorder writes replayable JSONL lines', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'tandem-rec-')), 'sub', 'rec.jsonl');
  const r = new TrafficRecorder(file, (e) => {
    throw e;
  });
  r.record('out', { jsonrpc: '2.0', id: 0, method: 'initialize', params: {} });
  r.record('in', { jsonrpc: '2.0', id: 0, result: { protocolVersion: 1 } });
  await r.close();
  const lines = readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    lines.map((l) => l.dir),
    ['c->a', 'a->c'],
  );
  assert.equal(lines[1].msg.result.protocolVersion, 1);
  assert.equal(typeof lines[0].ms, 'number');
});

test("a terminal/create command line's tokens are masked in the recorded traffic; other text is kept", () => {
  const msg = {
    jsonrpc: '2.0',
    id: 3,
    method: 'terminal/create',
    params: {
      sessionId: 's',
      command: 'curl -H "Authorization: Bearer abc.def.ghi" https://user:hunter2@example.com/x',
      args: ['--token=ghp_0123456789abcdefghijklmnopqrstuvwxyz', 'plain'],
      cwd: '/work',
    },
  };
  const out = JSON.stringify(redactSecrets(msg));
  for (const secret of ['abc.def.ghi', 'hunter2', 'ghp_0123456789abcdefghijklmnopqrstuvwxyz'])
    assert.ok(!out.includes(secret), `${secret} is masked: ${out}`);
  assert.ok(out.includes('plain') && out.includes('/work') && out.includes('curl'));
});

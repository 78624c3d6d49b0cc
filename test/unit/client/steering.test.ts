import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { InitializeResponse } from '@agentclientprotocol/sdk';
import {
  parseSteerResult,
  steeringSupported,
  steerParams,
  STEER_METHOD,
} from '../../../src/client/connection/steering';

const init = (meta?: unknown): InitializeResponse =>
  ({ protocolVersion: 1, agentCapabilities: {}, ...(meta === undefined ? {} : { _meta: meta }) }) as InitializeResponse;

test('steering counts as supported only where initialize says _meta.steering.supported: true', () => {
  // What claude-agent-acp 0.101.0 answers (top-level _meta, beside agentCapabilities).
  assert.equal(steeringSupported(init({ steering: { supported: true }, claudeCode: {} })), true);
  assert.equal(steeringSupported(init()), false);
  assert.equal(steeringSupported(undefined), false);
  assert.equal(steeringSupported(init({ steering: { supported: 'yes' } })), false);
  assert.equal(steeringSupported(init({ steering: {} })), false);
  assert.equal(steeringSupported(init(null)), false);
  // Prompt queueing alone is not steering.
  assert.equal(steeringSupported(init({ claudeCode: { promptQueueing: true } })), false);
  assert.equal(
    steeringSupported({
      protocolVersion: 1,
      agentCapabilities: { _meta: { steering: { supported: true } } },
    } as InitializeResponse),
    false,
    'under agentCapabilities is not where the agent says it',
  );
});

test('the steering request is _session/steering with the prompt, asking to be told when no turn runs', () => {
  assert.equal(STEER_METHOD.method, '_session/steering');
  assert.deepEqual(steerParams('s-1', [{ type: 'text', text: 'also check b.ts' }]), {
    sessionId: 's-1',
    prompt: [{ type: 'text', text: 'also check b.ts' }],
    _meta: { steering: { idleBehavior: 'promptRequired' } },
  });
});

test('the steering answer is read strictly', () => {
  assert.equal(parseSteerResult({ outcome: 'injected' }), 'injected');
  assert.equal(parseSteerResult({ outcome: 'promptRequired', reason: 'noRunningTurn' }), 'promptRequired');
  assert.equal(parseSteerResult({ outcome: 'startedNewTurn' }), 'startedNewTurn');
  assert.throws(() => parseSteerResult({ outcome: 'sure' }), /_session\/steering/);
  assert.throws(() => parseSteerResult(null), /_session\/steering/);
});

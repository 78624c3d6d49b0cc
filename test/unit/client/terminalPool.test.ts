import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TerminalPool } from '../../../src/client/terminals/terminalPool';

test('a session reuses its idle terminal for the next command', () => {
  const pool = new TerminalPool<string>();
  assert.equal(pool.acquire('s1'), undefined, 'none yet');
  pool.add('s1', 'T1');
  assert.equal(pool.acquire('s1'), undefined, 'T1 is busy with its first command');
  pool.release('T1');
  assert.equal(pool.acquire('s1'), 'T1');
  assert.equal(pool.acquire('s2'), undefined, 'another session never gets it');
});

test('concurrent commands get their own terminal; each is reused once idle', () => {
  const pool = new TerminalPool<string>();
  pool.add('s1', 'T1');
  assert.equal(pool.acquire('s1'), undefined);
  pool.add('s1', 'T2');
  assert.equal(pool.count('s1'), 2);
  pool.release('T2');
  assert.equal(pool.acquire('s1'), 'T2');
  pool.release('T1');
  assert.equal(pool.acquire('s1'), 'T1');
});

test('a terminal the user runs a command in, or closed, is not handed out', () => {
  const pool = new TerminalPool<string>();
  pool.add('s1', 'T1');
  pool.release('T1');
  pool.setUserBusy('T1', true);
  assert.equal(pool.acquire('s1'), undefined);
  pool.setUserBusy('T1', false);
  assert.equal(pool.acquire('s1'), 'T1');
  pool.release('T1');
  pool.remove('T1');
  assert.equal(pool.acquire('s1'), undefined);
  assert.equal(pool.has('T1'), false);
  assert.deepEqual(pool.all(), []);
});

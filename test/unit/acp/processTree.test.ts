// The decisions of the process-tree module on every OS, with the platform, the spawner, the
// signals and taskkill faked (so the Windows path runs on Linux): what is run, in which order,
// and that a tree is reported gone only when it is. Then the one thing fakes cannot show: a real
// tree that ignores SIGTERM dies after the grace with no help from the host.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { ChildProcess } from 'node:child_process';
import type { Watchdog } from '../../../src/acp/hostWatchdog';
import { groupAlive } from '../../../src/acp/processGroups';
import { spawnTree, type TreeDeps } from '../../../src/acp/processTree';
import { until } from '../../support/until';

const posix = process.platform !== 'win32';
const PID = 4242;

/** A leader process that exits when the test says so; records direct kills. */
class FakeChild extends EventEmitter {
  readonly pid = PID;
  readonly directKills: string[] = [];
  kill(signal: string): boolean {
    this.directKills.push(signal);
    return true;
  }
  exit(signal: string | null = null): void {
    this.emit('exit', null, signal);
  }
}

function fakeWorld(platform: NodeJS.Platform) {
  const child = new FakeChild();
  const ran: string[] = [];
  /** taskkill runs waiting for the test to finish them, with their exit code. */
  const taskkills: ((code: number) => void)[] = [];
  let groupLive = true;
  const watchdog: Watchdog & { lines: string[] } = {
    pid: 1,
    lines: [],
    watch: (id, grace) => watchdog.lines.push(`watch ${id} ${grace}`),
    stopping: (id) => watchdog.lines.push(`stopping ${id}`),
    unwatch: (id) => watchdog.lines.push(`unwatch ${id}`),
  };
  const deps: TreeDeps = {
    platform,
    spawn: () => child as unknown as ChildProcess,
    killGroup: (pgid, signal) => {
      if (!groupLive) throw Object.assign(new Error('ESRCH'), { code: 'ESRCH' });
      ran.push(`kill -${signal} -${pgid}`);
    },
    groupAlive: () => groupLive,
    taskkill: (args) => {
      ran.push(`taskkill ${args.join(' ')}`);
      return new Promise((resolve) => taskkills.push(resolve));
    },
    watchdog,
  };
  return {
    child,
    ran,
    taskkills,
    watchdog,
    deps,
    endGroup: () => {
      groupLive = false;
    },
  };
}

/** One turn of the event loop: what a signal or an exit set off has run. */
const tick = () => new Promise((r) => setImmediate(r));

test('on Windows a stop runs taskkill /T, then taskkill /T /F after the grace, and never kills the leader alone', async () => {
  const w = fakeWorld('win32');
  const tree = spawnTree('agent', [], { graceMs: 50 }, w.deps);
  const killed = tree.kill();
  assert.deepEqual(w.ran, [`taskkill /pid ${PID} /T`]);
  // A console program refuses the polite close (exit code 1): the tree still runs.
  w.taskkills.shift()!(1);
  await until(() => w.ran.length === 2, 2000, 'the forced taskkill');
  assert.deepEqual(w.ran, [`taskkill /pid ${PID} /T`, `taskkill /pid ${PID} /T /F`]);
  assert.deepEqual(w.child.directKills, [], 'the leader alone is never signalled: its children would survive');
  // taskkill /F ends the leader, then returns.
  w.child.exit('SIGKILL');
  await tick();
  assert.equal(tree.alive(), true, 'alive until the forced taskkill has finished');
  w.taskkills.shift()!(0);
  assert.equal(await killed, true);
  assert.equal(tree.alive(), false);
  assert.deepEqual(w.watchdog.lines, [`watch ${PID} 50`, `stopping ${PID}`, `unwatch ${PID}`]);
});

test('on Windows the tree is not reported gone when SIGTERM was sent but the leader still runs', async () => {
  const w = fakeWorld('win32');
  const tree = spawnTree('agent', [], { graceMs: 50 }, w.deps);
  assert.equal(tree.signal('SIGTERM'), true);
  w.taskkills.shift()!(0);
  await tick();
  assert.equal(tree.alive(), true);
  // The leader exits after the polite close (its children, closed with it by /T, too).
  w.child.exit();
  assert.equal(tree.alive(), false);
  assert.equal(tree.signal('SIGKILL'), false, 'nothing left to signal');
});

test('on Windows a tree whose leader has exited is not signalled and counts as gone', async () => {
  const w = fakeWorld('win32');
  const tree = spawnTree('npm', [], { graceMs: 50 }, w.deps);
  w.child.exit();
  assert.equal(await tree.kill(), true);
  assert.deepEqual(w.ran, []);
  assert.deepEqual(w.watchdog.lines, [`watch ${PID} 50`, `unwatch ${PID}`]);
});

test('on POSIX a stop signals the whole group, SIGTERM then SIGKILL after the grace', async () => {
  const w = fakeWorld('linux');
  const tree = spawnTree('sh', ['-c', 'x'], { graceMs: 50 }, w.deps);
  const forced: string[] = [];
  const killed = tree.kill(() => forced.push('force'));
  assert.deepEqual(w.ran, [`kill -SIGTERM -${PID}`]);
  assert.deepEqual(w.watchdog.lines, [`watch ${PID} 50`, `stopping ${PID}`], 'the watchdog escalates too');
  await until(() => w.ran.length === 2, 2000, 'the SIGKILL');
  assert.deepEqual(forced, ['force']);
  assert.deepEqual(w.ran, [`kill -SIGTERM -${PID}`, `kill -SIGKILL -${PID}`]);
  // The leader's exit alone is not enough while the group has members.
  w.child.exit('SIGKILL');
  assert.equal(tree.alive(), true);
  w.endGroup();
  assert.equal(await killed, true);
  assert.deepEqual(w.child.directKills, []);
  assert.equal(w.watchdog.lines.at(-1), `unwatch ${PID}`);
});

test('on POSIX a group that ended by itself is forgotten by the watchdog', () => {
  const w = fakeWorld('linux');
  spawnTree('true', [], {}, w.deps);
  w.endGroup();
  w.child.exit();
  assert.deepEqual(w.watchdog.lines, [`watch ${PID} 2000`, `unwatch ${PID}`]);
});

test('on POSIX a group whose leader exited is forgotten once its last background child ends', async () => {
  const w = fakeWorld('linux');
  spawnTree('sh', ['-c', 'server &'], {}, w.deps);
  w.child.exit();
  assert.deepEqual(w.watchdog.lines, [`watch ${PID} 2000`], 'still guarded while the child runs');
  w.endGroup();
  await until(() => w.watchdog.lines.length === 2, 5000, 'the group to be forgotten');
  assert.equal(w.watchdog.lines[1], `unwatch ${PID}`);
});

test(
  'after SIGTERM alone, the watchdog SIGKILLs a tree that ignores it once the grace is over',
  { skip: !posix },
  async () => {
    // The host sends SIGTERM and then never runs its own SIGKILL timer (it is exiting).
    const tree = spawnTree('sh', ['-c', 'trap "" TERM; echo up; sleep 1000 & wait'], {
      graceMs: 300,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    await new Promise((r) => tree.child.stdout!.once('data', r));
    const pgid = tree.pid!;
    try {
      assert.equal(tree.signal('SIGTERM'), true);
      await until(() => !groupAlive(pgid), 5000, 'the watchdog to SIGKILL the group');
    } finally {
      if (groupAlive(pgid)) process.kill(-pgid, 'SIGKILL');
    }
  },
);

test('a tree that could not start is never signalled or guarded', async () => {
  const tree = spawnTree('tandem-no-such-command-xyz', [], { stdio: 'ignore' });
  await new Promise((r) => tree.child.once('error', r));
  assert.equal(tree.pid, undefined);
  assert.equal(tree.alive(), false);
  assert.equal(tree.signal('SIGTERM'), false);
  assert.equal(await tree.kill(), true);
});

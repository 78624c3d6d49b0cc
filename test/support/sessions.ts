// Session states built through the real reducer, for tests of what the host and the view do
// with a session that already has history.
import type { SessionAction } from '../../src/session/actions';
import { createSessionState, reduce, type SessionState } from '../../src/session/reducer';

/** Session "s": three finished turns ("task 0".."task 2"), each with three completed reads (c<t>.<c>, f<t><c>.ts). */
export function threeFinishedTurns(): SessionState {
  let s = createSessionState('s');
  const run = (a: SessionAction) => {
    s = reduce(s, a).state;
  };
  for (let t = 0; t < 3; t++) {
    run({ type: 'promptStarted', at: t, prompt: [{ type: 'text', text: `task ${t}` }] });
    for (let c = 0; c < 3; c++)
      run({
        type: 'update',
        at: t,
        update: {
          sessionUpdate: 'tool_call',
          toolCallId: `c${t}.${c}`,
          title: `Read f${t}${c}.ts`,
          kind: 'read',
          status: 'completed',
        },
      });
    run({ type: 'promptEnded', at: t, stopReason: 'end_turn' });
  }
  return s;
}

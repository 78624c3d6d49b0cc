// Tandem's real permission pipeline for the compat tests: the broker (rules → remembered →
// prompt) with the built-in rules only, wired to the connection by the real PermissionsFeature.
import assert from 'node:assert/strict';
import type { MemoryLogger } from '../../src/common/logger';
import { PermissionBroker } from '../../src/client/permissions/broker';
import { PermissionsFeature } from '../../src/client/permissions/feature';
import { RememberedDecisions, type RememberedDecision } from '../../src/client/permissions/remembered';

/**
 * `answer` plays the user: it picks an option kind for each prompt, and the answer goes through
 * broker.answer like a click in the view or the notification.
 */
export function userPermissions(ws: string, logger: MemoryLogger, answer: (kinds: string[], title: string) => string) {
  let saved: readonly RememberedDecision[] = [];
  const broker = new PermissionBroker({
    rules: () => ({ user: [], workspace: [] }),
    roots: () => [ws],
    logger,
    remembered: new RememberedDecisions({
      get: () => saved,
      set: (l) => {
        saved = l;
      },
    }),
  });
  const asked: { title: string; kinds: string[]; kind: string }[] = [];
  broker.onDidChange((ch) => {
    if (ch.type !== 'added') return;
    const { view } = ch.pending;
    const kinds = view.options.map((o) => o.kind);
    const title = view.toolCall.title ?? view.toolCallId;
    const kind = answer(kinds, title);
    asked.push({ title, kinds, kind });
    const option = view.options.find((o) => o.kind === kind);
    assert.ok(option, `${title}: no ${kind} option among ${kinds.join(', ')}`);
    // As the view does: the answer comes after the prompt was shown, not inside the request.
    setTimeout(() => assert.ok(broker.answer(ch.pending.requestId, option.optionId)), 50);
  });
  return { broker, feature: new PermissionsFeature(broker), asked };
}

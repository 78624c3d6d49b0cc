// A tool call as the view holds it, pending unless the test says otherwise.
import type { ToolCallView } from '../../../src/shared/sessionModel';

export const toolCall = (over: Partial<ToolCallView>): ToolCallView => ({
  toolCallId: 'c1',
  title: 'Tool',
  kind: 'other',
  status: 'pending',
  content: [],
  locations: [],
  turn: 0,
  startedAt: 0,
  ...over,
});

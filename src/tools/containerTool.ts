// What the container tool of a collapsed group says to the agent: its description and input
// schema, and the text it answers with when it expands the group or activates a skill.
import type { JsonSchema, SkillDefinition, ToolGroup } from './types';

export const EMPTY_OBJECT_SCHEMA: JsonSchema = { type: 'object', properties: {}, additionalProperties: false };

export function containerDescription(g: ToolGroup): string {
  const n = g.tools.length;
  return (
    `${g.name}${g.description ? ` — ${g.description}` : ''} (${n} tool${n === 1 ? '' : 's'}). Call this to expand the group and make its tools available.` +
    ' If your tool list does not show them afterwards, call this again with {"function": "<name>", "arguments": {…}} to run one directly.'
  );
}

/**
 * The container's input: nothing (expand), or a function of the group to run through it. Some
 * agents (Claude Code) never re-read the tool list after list_changed; proxying keeps the
 * group usable for them. See docs/ACP-NOTES.md and claude-code issue #13646.
 */
export function containerSchema(g: ToolGroup): JsonSchema {
  return {
    type: 'object',
    properties: {
      function: {
        type: 'string',
        enum: g.tools.map((t) => t.name),
        description: 'A function of this group to run now (optional).',
      },
      arguments: { type: 'object', description: 'Arguments for that function, as its own schema describes them.' },
    },
    additionalProperties: false,
  };
}

/** `"{Group} expanded. Available functions: {A, B, C}"` + the group's functionResult. */
export function expansionText(g: ToolGroup, visible: readonly string[]): string {
  const base = `${g.name} expanded. Available functions: ${visible.join(', ')}`;
  return g.functionResult?.trim() ? `${base}\n\n${g.functionResult.trim()}` : base;
}

export function skillActivationText(skill: SkillDefinition, visible: readonly string[]): string {
  const base = `${skill.name} skill activated. Available functions: ${visible.join(', ')}`;
  return skill.functionResult?.trim() ? `${base}\n\n${skill.functionResult.trim()}` : base;
}

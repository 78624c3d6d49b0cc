// The client tool registry (extension lifetime) and each session's view of it (ToolState):
// which groups are collapsed behind a container, which skills are active, which tools hidden,
// which groups injected or removed by augmentation. Pure: no vscode, no transport.
//
// Schemas are compiled with ajv when a group is registered (never at activation: groups arrive
// at run time, from the IDE group, other extensions and settings), and a bad group is rejected
// with an error naming the group, the tool and the schema path.
import type Ajv from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { toDisposable, type IDisposable } from '../common/disposable';
import { Emitter } from '../common/event';
import {
  DEFAULT_TOOLS_CONFIG,
  TOOL_NAME,
  type Augmentation,
  type ContextItem,
  type JsonSchema,
  type ListedTool,
  type SkillDefinition,
  type Tool,
  type ToolGroup,
  type ToolsConfig,
} from './types';

/** A group whose schemas compiled; validators by tool name. */
export interface CompiledGroup {
  readonly group: ToolGroup;
  readonly validators: ReadonlyMap<string, ValidateFunction>;
  /** Tool name of each skill (derived from its free-text name). */
  readonly skillNames: ReadonlyMap<string, SkillDefinition>;
}

export class ToolRegistrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolRegistrationError';
  }
}

let ajvInstance: Ajv | undefined;
/** ajv is loaded and built on first registration, not at activation. */
function ajv(): Ajv {
  if (!ajvInstance) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- synchronous lazy load (activation cost)
    const AjvCtor = (require('ajv') as { default: typeof Ajv }).default;
    ajvInstance = new AjvCtor({ allErrors: false, strict: false, validateSchema: true });
  }
  return ajvInstance;
}

/** `/properties/line/type` → `parametersSchema.properties.line.type`. */
function schemaPath(e: ErrorObject): string {
  const parts = e.instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  return ['parametersSchema', ...parts].join('.');
}

export function skillToolName(skill: string): string {
  return skill
    .trim()
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .slice(0, 64);
}

/**
 * A validator that compiles its schema on the first call: for built-in groups whose schemas are
 * Tandem's own, so activation loads no ajv and generates no code (bench/activation.mjs checks).
 */
function lazyValidator(schema: JsonSchema): ValidateFunction {
  let real: ValidateFunction | undefined;
  const v = ((data: unknown) => {
    try {
      real ??= ajv().compile(schema);
    } catch (err) {
      v.errors = [
        {
          instancePath: '',
          schemaPath: '#',
          keyword: 'schema',
          params: {},
          message: `has an invalid schema (${err instanceof Error ? err.message : String(err)})`,
        },
      ];
      return false;
    }
    const ok = real(data) as boolean;
    v.errors = real.errors;
    return ok;
  }) as ValidateFunction;
  v.errors = null;
  v.schema = schema;
  return v;
}

/**
 * Validates a group and compiles its schemas. Throws ToolRegistrationError naming what is wrong.
 * `trusted` (built-in groups only): the structure is checked now, the schemas are compiled on
 * each tool's first call instead (no ajv at activation).
 */
export function compileGroup(group: ToolGroup, opts: { trusted?: boolean } = {}): CompiledGroup {
  const g = typeof group?.name === 'string' ? group.name : String(group?.name);
  const fail = (msg: string): never => {
    throw new ToolRegistrationError(`Invalid tool group "${g}": ${msg}`);
  };
  if (!group || typeof group !== 'object') fail('not an object');
  if (typeof group.name !== 'string' || !TOOL_NAME.test(group.name))
    fail("the group name must match ^[A-Za-z0-9_-]{1,64}$ (it is also the container tool's name)");
  if (!Array.isArray(group.tools) || group.tools.length === 0) fail('it has no tools');
  const validators = new Map<string, ValidateFunction>();
  for (const tool of group.tools) {
    const t = typeof tool?.name === 'string' ? tool.name : String(tool?.name);
    const failTool = (msg: string): never => fail(`tool "${t}": ${msg}`);
    if (typeof tool?.name !== 'string' || !TOOL_NAME.test(tool.name))
      failTool('the name must match ^[A-Za-z0-9_-]{1,64}$');
    if (tool.name === group.name) failTool("a tool cannot have its group's name");
    if (validators.has(tool.name)) failTool('duplicate tool name in the group');
    if (typeof tool.description !== 'string' || !tool.description.trim()) failTool('missing description');
    if (typeof tool.handler !== 'function') failTool('missing handler');
    const schema = tool.parametersSchema as JsonSchema;
    if (!schema || typeof schema !== 'object' || Array.isArray(schema))
      failTool('parametersSchema: must be a JSON Schema object');
    if (schema.type !== 'object') failTool('parametersSchema.type: must be "object" (tool arguments are an object)');
    if (opts.trusted) {
      validators.set(tool.name, lazyValidator(schema));
      continue;
    }
    const a = ajv();
    if (!a.validateSchema(schema)) {
      const e = a.errors?.[0];
      failTool(e ? `${schemaPath(e)}: ${e.message ?? 'invalid'}` : 'parametersSchema: invalid JSON Schema');
    }
    try {
      validators.set(tool.name, a.compile(schema));
    } catch (err) {
      failTool(`parametersSchema: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  const skillNames = new Map<string, SkillDefinition>();
  for (const skill of group.skills ?? []) {
    const s = String(skill?.name);
    const failSkill = (msg: string): never => fail(`skill "${s}": ${msg}`);
    const name = skillToolName(s);
    if (!name || name === '_') failSkill('missing name');
    if (skillNames.has(name) || validators.has(name) || name === group.name)
      failSkill(`its tool name "${name}" is already used in the group`);
    if (!Array.isArray(skill.references) || skill.references.length === 0) failSkill('it references no tools');
    for (const r of skill.references)
      if (!validators.has(r))
        failSkill(`references unknown tool "${r}" (tools of ${group.name}: ${[...validators.keys()].join(', ')})`);
    skillNames.set(name, skill);
  }
  return { group, validators, skillNames };
}

/** Every name a compiled group puts in the agent's tool namespace. */
function namesOf(c: CompiledGroup): string[] {
  return [c.group.name, ...c.validators.keys(), ...c.skillNames.keys()];
}

export class ToolRegistry implements IDisposable {
  private readonly groups = new Map<string, CompiledGroup>();
  private readonly changed = new Emitter<void>();
  /** A group was registered or removed. */
  readonly onDidChange = this.changed.event;

  /**
   * Registers a group; throws ToolRegistrationError for a bad or clashing group. `trusted`: see
   * compileGroup. `replace`: takes the place of the group of the same name in one change (one
   * list_changed; the old registration's dispose then does nothing).
   */
  register(group: ToolGroup, opts: { trusted?: boolean; replace?: boolean } = {}): IDisposable {
    const compiled = compileGroup(group, opts);
    this.checkClash(
      compiled,
      this.all().filter((c) => !opts.replace || c.group.name !== group.name),
    );
    this.groups.set(group.name, compiled);
    this.changed.fire();
    return toDisposable(() => {
      if (this.groups.get(group.name) === compiled) {
        this.groups.delete(group.name);
        this.changed.fire();
      }
    });
  }

  /** Throws if a name of `c` is already taken by one of `others`. */
  checkClash(c: CompiledGroup, others: Iterable<CompiledGroup>): void {
    const taken = new Map<string, string>();
    for (const o of others) for (const n of namesOf(o)) taken.set(n, o.group.name);
    if (taken.has(c.group.name) && [...others].some((o) => o.group.name === c.group.name)) {
      throw new ToolRegistrationError(
        `Invalid tool group "${c.group.name}": a group with this name is already registered`,
      );
    }
    for (const n of namesOf(c)) {
      const owner = taken.get(n);
      if (owner)
        throw new ToolRegistrationError(
          `Invalid tool group "${c.group.name}": the name "${n}" is already used by group "${owner}"`,
        );
    }
  }

  get(name: string): CompiledGroup | undefined {
    return this.groups.get(name);
  }
  all(): CompiledGroup[] {
    return [...this.groups.values()];
  }

  dispose(): void {
    this.groups.clear();
    this.changed.dispose();
  }
}

const EMPTY_OBJECT_SCHEMA: JsonSchema = { type: 'object', properties: {}, additionalProperties: false };

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
 * group usable for them. See ../../shared/ACP-NOTES.md and claude-code issue #13646.
 */
function containerSchema(g: ToolGroup): JsonSchema {
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

/**
 * One session's client tools: the registry plus this session's expansions, active skills,
 * hidden tools and injected/removed groups. Persists across turns; reset() starts over from the
 * configured groups (a new session gets a new ToolState).
 */
export class ToolState implements IDisposable {
  private expansion = new Map<string, boolean>();
  private hidden = new Set<string>();
  private removed = new Set<string>();
  private injected = new Map<string, CompiledGroup>();
  private activeSkills = new Set<string>();
  private contextItems: ContextItem[] = [];
  private lastSignature = '';
  private readonly changed = new Emitter<void>();
  /** The agent's tool list changed (fire → notifications/tools/list_changed). */
  readonly onDidChangeList = this.changed.event;
  private readonly sub: IDisposable;

  constructor(
    private readonly registry: ToolRegistry,
    private readonly config: () => ToolsConfig = () => DEFAULT_TOOLS_CONFIG,
  ) {
    this.sub = registry.onDidChange(() => this.maybeFire());
    this.lastSignature = this.signature();
  }

  get context(): readonly ContextItem[] {
    return this.contextItems;
  }

  /** Groups present in this session (registered minus removed, plus injected). */
  groups(): CompiledGroup[] {
    const out = this.registry.all().filter((c) => !this.removed.has(c.group.name) && !this.injected.has(c.group.name));
    return [...out, ...this.injected.values()];
  }

  group(name: string): CompiledGroup | undefined {
    if (this.removed.has(name)) return undefined;
    return this.injected.get(name) ?? this.registry.get(name);
  }

  isCollapsed(name: string): boolean {
    const cfg = this.config();
    if (!cfg.collapse) return false;
    const o = this.expansion.get(name);
    if (o !== undefined) return !o;
    const c = this.group(name);
    if (!c) return false;
    return c.group.startCollapsed !== false && !cfg.expandedGroups.includes(name);
  }

  private skillKey(group: string, skillTool: string): string {
    return `${group}\u0000${skillTool}`;
  }

  /** Tools of a group the agent sees now (its expansion or its active skills, minus hidden). */
  visibleTools(c: CompiledGroup): Tool[] {
    const collapsed = this.isCollapsed(c.group.name);
    const bySkill = new Set<string>();
    if (collapsed) {
      for (const [n, s] of c.skillNames)
        if (this.activeSkills.has(this.skillKey(c.group.name, n))) for (const r of s.references) bySkill.add(r);
    }
    return c.group.tools.filter((t) => !this.hidden.has(t.name) && (!collapsed || bySkill.has(t.name)));
  }

  /** The agent's tool list, in group order: container (if collapsed), skills, tools. */
  list(): ListedTool[] {
    const out: ListedTool[] = [];
    for (const c of this.groups()) {
      const g = c.group;
      if (this.isCollapsed(g.name)) {
        out.push({
          kind: 'container',
          name: g.name,
          description: containerDescription(g),
          inputSchema: containerSchema(g),
          group: g.name,
        });
      }
      for (const [name, skill] of c.skillNames) {
        out.push({
          kind: 'skill',
          name,
          description: `Skill: ${skill.description} Activating it makes these tools available: ${skill.references.join(', ')}.`,
          inputSchema: EMPTY_OBJECT_SCHEMA,
          group: g.name,
          skill,
        });
      }
      const prompts = this.standingPrompts(c);
      for (const t of this.visibleTools(c)) {
        const extra = prompts.get(t.name);
        out.push({
          kind: 'tool',
          name: t.name,
          description: extra ? `${t.description}\n\n${extra}` : t.description,
          inputSchema: t.parametersSchema,
          group: g.name,
          tool: t,
        });
      }
    }
    return out;
  }

  /**
   * systemPrompt mapping (see README "Client tools"): while a group is expanded (or a skill
   * active), its systemPrompt rides on the description of each of its visible tools — tool
   * definitions are re-sent to the model every turn, and they go away when the group collapses.
   */
  private standingPrompts(c: CompiledGroup): Map<string, string> {
    const out = new Map<string, string>();
    const add = (tool: string, text: string) => out.set(tool, out.has(tool) ? `${out.get(tool)}\n${text}` : text);
    const g = c.group;
    if (!this.isCollapsed(g.name) && g.systemPrompt?.trim())
      for (const t of g.tools) add(t.name, `${g.name} group instructions: ${g.systemPrompt.trim()}`);
    for (const [n, s] of c.skillNames) {
      if (s.systemPrompt?.trim() && this.activeSkills.has(this.skillKey(g.name, n)))
        for (const r of s.references) add(r, `${s.name} skill instructions: ${s.systemPrompt.trim()}`);
    }
    return out;
  }

  /** What a name in the agent's call refers to now, if it is listed. */
  resolve(name: string): ListedTool | undefined {
    const listed = this.list().find((l) => l.name === name);
    if (listed) return listed;
    // A group's container called after it expanded: an agent with a stale tool list.
    const c = this.group(name);
    return c
      ? {
          kind: 'container',
          name,
          description: containerDescription(c.group),
          inputSchema: containerSchema(c.group),
          group: name,
        }
      : undefined;
  }

  /** Expands a group; returns the generated expansion text. */
  expand(name: string): string | undefined {
    const c = this.group(name);
    if (!c) return undefined;
    this.expansion.set(name, true);
    this.maybeFire();
    return expansionText(
      c.group,
      this.visibleTools(c).map((t) => t.name),
    );
  }

  collapse(name: string): void {
    if (!this.group(name)) return;
    this.expansion.set(name, false);
    this.maybeFire();
  }

  activateSkill(group: string, skillTool: string): string | undefined {
    const c = this.group(group);
    const skill = c?.skillNames.get(skillTool);
    if (!c || !skill) return undefined;
    this.activeSkills.add(this.skillKey(group, skillTool));
    this.maybeFire();
    const visible = skill.references.filter((r) => !this.hidden.has(r));
    return skillActivationText(skill, visible);
  }

  /** Applies a handler's augmentation; returns problems (as text for the result) and context lines. */
  augment(a: Augmentation): { problems: string[]; context: ContextItem[] } {
    const problems: string[] = [];
    for (const g of a.injectGroups ?? []) {
      try {
        const c = compileGroup(g);
        const others = this.groups().filter((o) => o.group.name !== g.name || !this.injected.has(g.name));
        this.checkInjectClash(c, others);
        this.removed.delete(g.name);
        this.injected.set(g.name, c);
      } catch (err) {
        problems.push(err instanceof Error ? err.message : String(err));
      }
    }
    for (const n of a.removeGroups ?? []) {
      if (this.injected.delete(n)) continue;
      if (this.registry.get(n)) this.removed.add(n);
    }
    for (const n of a.expandGroups ?? []) this.expansion.set(n, true);
    for (const n of a.collapseGroups ?? []) this.expansion.set(n, false);
    for (const n of a.hideTools ?? []) this.hidden.add(n);
    for (const n of a.showTools ?? []) this.hidden.delete(n);
    const context = (a.addContext ?? []).filter((c) => c && typeof c.key === 'string' && typeof c.value === 'string');
    this.contextItems.push(...context);
    this.maybeFire();
    return { problems, context };
  }

  private checkInjectClash(c: CompiledGroup, others: CompiledGroup[]): void {
    const taken = new Map<string, string>();
    for (const o of others) if (o.group.name !== c.group.name) for (const n of namesOf(o)) taken.set(n, o.group.name);
    for (const n of namesOf(c)) {
      const owner = taken.get(n);
      if (owner)
        throw new ToolRegistrationError(
          `Invalid tool group "${c.group.name}": the name "${n}" is already used by group "${owner}"`,
        );
    }
  }

  /** Back to the configured groups: no expansions, skills, hidden, injected or removed groups. */
  reset(): void {
    this.expansion.clear();
    this.hidden.clear();
    this.removed.clear();
    this.injected.clear();
    this.activeSkills.clear();
    this.contextItems = [];
    this.maybeFire();
  }

  /** Settings changed (collapse, expanded groups): re-check the list. */
  refresh(): void {
    this.maybeFire();
  }

  private signature(): string {
    return JSON.stringify(this.list().map((l) => [l.name, l.description]));
  }

  private maybeFire(): void {
    const s = this.signature();
    if (s === this.lastSignature) return;
    this.lastSignature = s;
    this.changed.fire();
  }

  dispose(): void {
    this.sub.dispose();
    this.changed.dispose();
  }
}

// The client tool registry (extension lifetime): the groups registered, their schemas compiled,
// names checked for clashes. Each session's view of it is a ToolState (toolState.ts). Pure: no
// vscode, no transport.
//
// Schemas are compiled with ajv when a group is registered (never at activation: groups arrive
// at run time, from the IDE group, other extensions and settings), and a bad group is rejected
// with an error naming the group, the tool and the schema path.
import type Ajv from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { toDisposable, type IDisposable } from '../common/disposable';
import { Emitter } from '../common/event';
import { TOOL_NAME, type JsonSchema, type SkillDefinition, type ToolGroup } from './types';

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
export function namesOf(c: CompiledGroup): string[] {
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

/**
 * Who may put classed nodes into n8n or run them (src/workflows/nodeClasses.ts): each class needs a
 * scope of its own, and the operator says which classes any caller may use at all
 * (ALLOWED_NODE_CLASSES) and may move node types between classes (NODE_CLASS_OVERRIDES).
 */
import type { Env } from '../env';
import type { Principal } from '../principal';
import { clip, type Finding } from '../workflows/findings';
import { isNodeClass, NODE_CLASSES, nodeClasses, nodesInPlay, type ClassOverrides, type NodeClass } from '../workflows/nodeClasses';
import { allows, type Scope } from './scopes';

/** The scope each class needs, besides the tool's own. `*` has them all. */
const CLASS_SCOPES: Readonly<Record<NodeClass, Scope>> = { host: 'workflows:host', code: 'workflows:code', credentials: 'credentials:use' };

/** What each class lets a workflow do, for refusals, server_info and the landing page. */
const CLASS_MEANING: Readonly<Record<NodeClass, string>> = {
  host: 'run commands on the n8n host or a server it reaches over SSH, read and write its files, read its environment',
  code: 'run code the caller wrote (Code, Function, AI Transform, LangChain Code, Code Tool)',
  credentials: 'use credentials stored in n8n (their secrets go wherever the node sends them)',
};

/** The n8n settings that bound each class at the source, whatever this server allows. */
export const AT_THE_SOURCE: Readonly<Record<NodeClass, string>> = {
  host: "n8n's NODES_EXCLUDE keeps such node types out (n8n 2.x excludes Execute Command and Local File Trigger by default), N8N_BLOCK_ENV_ACCESS_IN_NODE=true blocks $env, N8N_RESTRICT_FILE_ACCESS_TO confines the file nodes",
  code: "n8n's NODES_EXCLUDE keeps the code nodes out; N8N_RUNNERS_ENABLED=true runs Code in task runners, apart from n8n itself",
  credentials:
    "in n8n, a credential's Allowed HTTP Request Domains limits where its secret may be sent, and sharing limits which projects' workflows may use it",
};

/** Used when ALLOWED_NODE_CLASSES is unset: code and credentials to callers with their scopes, the host to none (as n8n 2.x does). */
const DEFAULT_ALLOWED_CLASSES: readonly NodeClass[] = ['code', 'credentials'];

export interface NodePolicy {
  /** The classes a caller with the class's scope may use; the others no caller may. */
  allowed: ReadonlySet<NodeClass>;
  overrides: ClassOverrides;
  /** The operator's variables could not be read: no class is allowed, and this says why. */
  invalid?: string;
  /** The classes the caller's workspace may use (src/workspaces/workspaces.ts): within `allowed`, never beyond. */
  workspace?: ReadonlySet<NodeClass>;
}

/** A node type (`package.name`) or a package's types (`package.*`). */
const TYPE_PATTERN = /^[@\w./-]+\.(?:\*|[\w-]+)$/;

/**
 * ALLOWED_NODE_CLASSES and NODE_CLASS_OVERRIDES, read, narrowed by the caller's workspace when it names
 * its classes; a value that cannot be read allows nothing and says so (a typo never widens).
 */
export function nodePolicyOf(env: Env, workspace?: { nodeClasses?: readonly NodeClass[] }): NodePolicy {
  const problems: string[] = [];
  const allowed = new Set<NodeClass>();
  const listed = env.ALLOWED_NODE_CLASSES === undefined ? [...DEFAULT_ALLOWED_CLASSES] : env.ALLOWED_NODE_CLASSES.split(/[\s,]+/).filter(Boolean);
  for (const name of listed) {
    if (isNodeClass(name)) allowed.add(name);
    else if (name !== 'none') problems.push(`ALLOWED_NODE_CLASSES names "${name}", which is no class (${NODE_CLASSES.join(', ')}, or none)`);
  }
  const overrides = new Map<string, NodeClass | 'none'>();
  for (const entry of (env.NODE_CLASS_OVERRIDES ?? '').split(/[\s,]+/).filter(Boolean)) {
    const [type = '', value = ''] = entry.split('=');
    if (!TYPE_PATTERN.test(type) || !(isNodeClass(value) || value === 'none')) {
      problems.push(`NODE_CLASS_OVERRIDES has "${entry}": each entry is <node type or package.*>=<${NODE_CLASSES.join('|')}|none>`);
    } else overrides.set(type, value);
  }
  if (problems.length) return { allowed: new Set(), overrides, invalid: problems.join('; ') };
  return { allowed, overrides, ...(workspace?.nodeClasses ? { workspace: new Set(workspace.nodeClasses) } : {}) };
}

/** Why `caller` may not use a class, in words that name the fix; null when it may. */
export function classRefusal(caller: Principal, policy: NodePolicy, nodeClass: NodeClass): string | null {
  if (policy.invalid) return `this deployment's node policy cannot be read (${policy.invalid}), so no caller may`;
  if (!policy.allowed.has(nodeClass)) return `this deployment lets no caller use class "${nodeClass}" (the operator's ALLOWED_NODE_CLASSES)`;
  if (policy.workspace && !policy.workspace.has(nodeClass))
    return `this credential's workspace lets no caller use class "${nodeClass}" (its node classes, set by the operator: npm run keys -- workspace classes)`;
  const scope = CLASS_SCOPES[nodeClass];
  return allows(caller.scopes, scope) ? null : `it needs the scope "${scope}", which this credential does not have`;
}

/** A class as server_info and the landing page show it. */
export interface NodeClassSummary {
  class: NodeClass;
  /** What nodes of the class let a workflow do. */
  lets: string;
  /** Whether this deployment lets callers with the scope use it. */
  allowed: boolean;
  scope: Scope;
}

/** What server_info and the landing page say of the classes: which this deployment allows, to whom. */
export function policySummary(policy: NodePolicy): NodeClassSummary[] {
  return NODE_CLASSES.map((nodeClass) => ({
    class: nodeClass,
    lets: CLASS_MEANING[nodeClass],
    allowed: !policy.invalid && policy.allowed.has(nodeClass) && (!policy.workspace || policy.workspace.has(nodeClass)),
    scope: CLASS_SCOPES[nodeClass],
  }));
}

/**
 * A warning for each node of a workflow `caller` may not put into n8n (what the node gate would refuse
 * at create_workflow or try_nodes), known before n8n is asked: by what the nodes are and hold, not by
 * the workflows they call, which only the gate reads.
 */
export function classWarnings(workflow: unknown, caller: Principal, policy: NodePolicy): Finding[] {
  return nodesInPlay([], workflow).flatMap((node) =>
    nodeClasses(node, policy.overrides).flatMap((c) => {
      const because = classRefusal(caller, policy, c.class);
      if (because === null) return [];
      const message = `"${clip(node.name)}" ${c.why}: class "${c.class}", and ${because}. create_workflow, edit_workflow and try_nodes refuse it for this credential.`;
      return [{ node: node.name, code: 'node_class_refused', message }];
    }),
  );
}

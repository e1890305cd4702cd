import type { Principal } from '../../principal';
import { allows } from '../../auth/scopes';
import { isPlainObject } from '../../workflows/values';

/**
 * What n8n says about people inside answers about other things (n8n 1.123.81's public API, read from
 * its source and its answers): a workflow's `shared[].project.projectRelations[].user` is each member
 * of the owning project (e-mail, names, MFA state, last activity, settings); a personal project is named
 * "First Last <email>"; a workflow's published version names its `authors`. Reading people is what
 * `users:read` is for, so a caller without it gets these answers without them.
 */
const seesUsers = (caller: Principal): boolean => allows(caller.scopes, 'users:read');

type Json = Record<string, unknown>;

/** Everything of `value` but `keys`. */
const without = (value: Json, keys: readonly string[]): Json => Object.fromEntries(Object.entries(value).filter(([key]) => !keys.includes(key)));

/** A project without its members, and a personal one without the name n8n makes of its owner. */
function projectWithoutUsers(project: Json): Json {
  return without(project, project.type === 'personal' ? ['projectRelations', 'name'] : ['projectRelations']);
}

function workflowWithoutUsers(workflow: Json): Json {
  const out = { ...workflow };
  if (Array.isArray(workflow.shared)) {
    // `user`: n8n before projects (0.x) shared a workflow with users directly.
    out.shared = workflow.shared.map((share) =>
      isPlainObject(share) ? { ...without(share, ['user']), ...(isPlainObject(share.project) ? { project: projectWithoutUsers(share.project) } : {}) } : share,
    );
  }
  if (isPlainObject(workflow.activeVersion)) out.activeVersion = without(workflow.activeVersion, ['authors']);
  return out;
}

/** A workflow as n8n answered it, as this caller may see it. */
export const workflowFor = (caller: Principal, workflow: Json): Json => (seesUsers(caller) ? workflow : workflowWithoutUsers(workflow));

/** A project as n8n answered it, as this caller may see it. */
export const projectFor = (caller: Principal, project: Json): Json => (seesUsers(caller) ? project : projectWithoutUsers(project));

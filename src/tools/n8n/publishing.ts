import { isPlainObject } from '../../workflows/values';
import type { Workflow } from './workflowApi';

/**
 * Which version of a workflow n8n runs. n8n keeps two: the saved one (`versionId`, what get_workflow
 * shows) and the published one (`activeVersionId`, what its triggers run; null when inactive). On n8n
 * 1.x they are one: activating or saving an active workflow publishes what is saved. On an n8n with
 * drafts (2.x, or 1.123 with N8N_ENV_FEAT_WORKFLOWS_DRAFT_PUBLISH_ENABLED) a save can leave the
 * published version running while the saved one waits as a draft — which an agent that tests or edits
 * the workflow must be told, or it tests one version and reads another.
 */
export interface Publishing {
  /** The saved version. */
  versionId: string | null;
  /** The version n8n runs, null when the workflow is not active. */
  liveVersionId: string | null;
  /** Set when the saved version is not the one n8n runs: what that means and how to change it. */
  draft?: string;
}

/** The published version's id: `activeVersionId` where n8n gives it, else (an n8n before it) the saved one when active. */
function liveVersionIdOf(workflow: Workflow): string | null {
  if (workflow.activeVersionId !== undefined) return typeof workflow.activeVersionId === 'string' ? workflow.activeVersionId : null;
  return workflow.active === true && typeof workflow.versionId === 'string' ? workflow.versionId : null;
}

export function publishingOf(workflow: Workflow): Publishing {
  const versionId = typeof workflow.versionId === 'string' ? workflow.versionId : null;
  const liveVersionId = liveVersionIdOf(workflow);
  if (liveVersionId === null || versionId === null || liveVersionId === versionId) return { versionId, liveVersionId };
  return {
    versionId,
    liveVersionId,
    draft:
      `The saved version (${versionId}) is a draft: n8n still runs the published version (${liveVersionId}), ` +
      'and test runs run that one. activate_workflow publishes the saved version.',
  };
}

/**
 * What n8n runs for a workflow's triggers: the published version's nodes and connections when n8n sends
 * them (an active workflow on an n8n with drafts may have saved others since), else the saved ones.
 */
export function liveVersionOf(workflow: Workflow): { nodes: Record<string, unknown>[]; connections: Record<string, unknown> } {
  const published = workflow.activeVersion;
  if (liveVersionIdOf(workflow) !== null && isPlainObject(published) && Array.isArray(published.nodes) && isPlainObject(published.connections)) {
    return { nodes: published.nodes as Record<string, unknown>[], connections: published.connections };
  }
  return { nodes: workflow.nodes ?? [], connections: workflow.connections ?? {} };
}

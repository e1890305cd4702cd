/** A workflow as n8n's public API returns it, and where it lives there. */
export interface Workflow {
  id: string;
  name: string;
  active?: boolean;
  isArchived?: boolean;
  createdAt?: string;
  updatedAt?: string;
  /** Changes on every save: what tells one version of a workflow from the next. */
  versionId?: string;
  nodes?: Record<string, unknown>[];
  connections?: Record<string, unknown>;
  settings?: Record<string, unknown>;
  tags?: { id: string; name: string }[];
  [field: string]: unknown;
}

export const workflowPath = (workflowId: string) => `/workflows/${encodeURIComponent(workflowId)}`;

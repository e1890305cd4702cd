import { AUDIT_TOOLS } from './audit';
import { CREDENTIAL_TOOLS } from './credentials';
import { EXECUTION_TOOLS } from './executions';
import { PROJECT_TOOLS } from './projects';
import { TAG_TOOLS } from './tags';
import { USER_TOOLS } from './users';
import { VARIABLE_TOOLS } from './variables';
import { WORKFLOW_TOOLS } from './workflows';

/** The 31 n8n management tools of seed 003, served when the deployment has an n8n to drive. */
export const N8N_TOOLS = [
  ...WORKFLOW_TOOLS,
  ...EXECUTION_TOOLS,
  ...CREDENTIAL_TOOLS,
  ...TAG_TOOLS,
  ...USER_TOOLS,
  ...VARIABLE_TOOLS,
  ...PROJECT_TOOLS,
  ...AUDIT_TOOLS,
];

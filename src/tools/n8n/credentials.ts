import { z } from 'zod';
import { credentialTypeName, n8nId } from '../../n8n/ids';
import { CREATES, DELETES, n8nTool, page, paging, READS, type Page } from './n8nTool';
import { NamedObject } from '../validation/schemas';

interface Credential {
  id: string;
  name: string;
  type: string;
  createdAt?: string;
  updatedAt?: string;
}

/** Never the credential's data: the secrets go into n8n and do not come back out through here. */
const describe = ({ id, name, type, createdAt, updatedAt }: Credential) => ({ id, name, type, createdAt, updatedAt });

export const CREDENTIAL_TOOLS = [
  n8nTool({
    name: 'list_credentials',
    title: 'List credentials',
    description: 'List the credentials stored in n8n: id, name, type (never their secrets).',
    input: z.object({ ...paging }),
    annotations: READS,
    async run({ limit, cursor }, n8n) {
      return page('credentials', await n8n.get<Page<Credential>>('/credentials', { query: { limit, cursor } }), describe);
    },
  }),
  n8nTool({
    name: 'get_credential_schema',
    title: 'Get a credential type’s schema',
    description: 'The JSON Schema of a credential type’s data (e.g. githubApi, slackOAuth2Api): what create_credential needs.',
    input: z.object({ credentialTypeName }),
    annotations: READS,
    run: ({ credentialTypeName }, n8n) => n8n.get(`/credentials/schema/${encodeURIComponent(credentialTypeName)}`),
  }),
  n8nTool({
    name: 'create_credential',
    title: 'Create a credential',
    description: 'Store a credential in n8n. `data` follows get_credential_schema for the type; it is not echoed back.',
    input: z.object({
      name: z.string().min(1).describe('A name for the credential'),
      type: credentialTypeName,
      data: NamedObject.describe('The secret fields, as the type’s schema describes them'),
      projectId: n8nId('project').optional().describe('The project to create it in (default: the key owner’s personal project)'),
    }),
    annotations: CREATES,
    async run({ name, type, data, projectId }, n8n) {
      return describe(await n8n.post<Credential>('/credentials', { body: { name, type, data, ...(projectId ? { projectId } : {}) } }));
    },
  }),
  n8nTool({
    name: 'delete_credential',
    title: 'Delete a credential',
    description: 'Delete a credential; workflows using it will fail until given another.',
    input: z.object({ id: n8nId('credential') }),
    annotations: DELETES,
    async run({ id }, n8n) {
      const deleted = await n8n.delete<Credential>(`/credentials/${encodeURIComponent(id)}`);
      return { deleted: true, ...(deleted ? describe(deleted) : { id }) };
    },
  }),
];

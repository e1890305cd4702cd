import { z } from 'zod';
import { TemplateStore } from '../../templates/templateStore';
import { defineTool, ToolError } from '../tool';

export const getTemplate = defineTool({
  name: 'get_template',
  title: 'Get a workflow template',
  description:
    'One workflow template whole, by the id search_templates gave: the workflow (nodes, connections, settings), where it ' +
    'comes from (repository, commit, path, link), its licence and author, the fixes autofix_workflow is sure of already ' +
    'made to it (`fixes`, with what the workflow as written had in `unfixed`), what validate_workflow finds in it against ' +
    'this catalog, and the credentials each node needs. To deploy it, pass `workflow` to create_workflow: it is validated ' +
    'there first and refused if it has errors; credentials are left out of templates, so attach your own of the listed ' +
    "types to those nodes (update_workflow or n8n's editor).",
  input: z.object({
    // Any id is only compared with the index's (TemplateStore.template): it never becomes a KV key.
    id: z.string().min(1).max(100).describe('The template id, from search_templates (12 hexadecimal digits)'),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  view: true,
  execution: 'direct',
  scope: 'nodes:read',
  async run({ id }, { env }) {
    const record = await new TemplateStore(env.SPECS).template(id);
    if (!record) throw new ToolError(`No template ${id}: search_templates lists the templates there are`);
    const { workflow, source, ...about } = record;
    return {
      ...about,
      licence: source.licence,
      author: source.author,
      source: { repo: source.repo, commit: source.commit, path: source.path, link: source.link },
      // Licences such as CC BY ask that changes be indicated: every template is changed (credentials out), some fixed.
      attribution:
        `"${record.name}" from ${source.link}, by ${source.author}, ${source.licence} licence; changed: credentials and pinned data taken out` +
        (record.fixes.length > 0 ? `, ${record.fixes.length} sure fix${record.fixes.length === 1 ? '' : 'es'} made (see fixes)` : ''),
      deploy: 'Pass `workflow` to create_workflow. Then attach a credential of your own of each type listed in `credentials` to its node.',
      workflow,
    };
  },
});

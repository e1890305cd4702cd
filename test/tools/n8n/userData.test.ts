import { describe, expect, it } from 'vitest';
import { projectFor, workflowFor } from '../../../src/tools/n8n/userData';

/** GET /workflows/{id} of a real n8n 1.123.81 (published once), cut to the parts that matter here. */
const owner = {
  updatedAt: '2026-11-25T12:59:37.000Z',
  createdAt: '2026-11-25T12:59:33.703Z',
  id: 'b489b044-e516-44c6-8aa9-3649a6db8da1',
  email: 'owner@example.com',
  firstName: 'Test',
  lastName: 'Owner',
  personalizationAnswers: null,
  settings: { userActivated: false },
  disabled: false,
  mfaEnabled: false,
  lastActiveAt: '2026-11-25',
  isPending: false,
};
const personalProject = {
  id: 'lugGca8miGaw5n05',
  name: 'Test Owner <owner@example.com>',
  type: 'personal',
  icon: null,
  description: null,
  projectRelations: [{ userId: owner.id, projectId: 'lugGca8miGaw5n05', user: owner }],
};
const workflow = {
  id: 'lcoyu2Fnpbyav28R',
  name: 'probe',
  active: true,
  nodes: [{ name: 'Webhook', type: 'n8n-nodes-base.webhook', parameters: { path: 'probe', user: 'a parameter, not a person' } }],
  connections: {},
  shared: [{ role: 'workflow:owner', workflowId: 'lcoyu2Fnpbyav28R', projectId: 'lugGca8miGaw5n05', project: personalProject }],
  activeVersion: { versionId: '37bcbd2a', workflowId: 'lcoyu2Fnpbyav28R', nodes: [], connections: {}, authors: 'Test Owner', name: null },
};

const caller = (...scopes: string[]) => ({ id: 'key_1', subject: 'key_1', scopes });
const PERSONAL = ['owner@example.com', 'Test Owner', '"firstName"', '"lastName"', '"mfaEnabled"', '"lastActiveAt"', owner.id];

describe('user data in n8n answers', () => {
  it('cuts the project members, the personal project’s name and the version’s authors from a workflow for a caller without users:read', () => {
    const seen = workflowFor(caller('workflows:read'), workflow);
    for (const personal of PERSONAL) expect(JSON.stringify(seen)).not.toContain(personal);
    // Everything else stays: which project owns it, with what role, and the workflow itself.
    expect(seen).toEqual({
      ...workflow,
      shared: [
        {
          role: 'workflow:owner',
          workflowId: 'lcoyu2Fnpbyav28R',
          projectId: 'lugGca8miGaw5n05',
          project: { id: 'lugGca8miGaw5n05', type: 'personal', icon: null, description: null },
        },
      ],
      activeVersion: { versionId: '37bcbd2a', workflowId: 'lcoyu2Fnpbyav28R', nodes: [], connections: {}, name: null },
    });
  });

  it('passes them on to a caller with users:read (or *)', () => {
    expect(workflowFor(caller('workflows:read', 'users:read'), workflow)).toBe(workflow);
    expect(workflowFor(caller('*'), workflow)).toBe(workflow);
  });

  it('names a team project, but not a personal one, for a caller without users:read', () => {
    const team = { id: 'team1', name: 'Marketing', type: 'team', projectRelations: personalProject.projectRelations };
    expect(projectFor(caller('projects:read'), team)).toEqual({ id: 'team1', name: 'Marketing', type: 'team' });
    expect(projectFor(caller('projects:read'), personalProject)).toEqual({ id: 'lugGca8miGaw5n05', type: 'personal', icon: null, description: null });
    expect(projectFor(caller('projects:read', 'users:read'), personalProject)).toBe(personalProject);
  });
});

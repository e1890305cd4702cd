import { describe, expect, it } from 'vitest';
import { workflowBody } from '../../src/n8n/workflowBody';

describe('workflowBody', () => {
  it('keeps what n8n accepts on create/update and drops what it refuses', () => {
    const fromGet = {
      id: 'w1',
      name: 'Flow',
      active: true,
      isArchived: false,
      versionId: 'v',
      versionCounter: 3,
      triggerCount: 1,
      createdAt: '2026-01-01T00:00:00.000Z',
      tags: [{ id: 't', name: 'x' }],
      shared: [{ role: 'workflow:owner' }],
      meta: null,
      activeVersion: null,
      description: null,
      staticData: null,
      nodes: [{ id: 'n', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {}, createdAt: 'x', extra: 1 }],
      connections: {},
      settings: { executionOrder: 'v1', unknownSetting: true },
    };
    expect(workflowBody(fromGet)).toEqual({
      name: 'Flow',
      nodes: [{ id: 'n', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} }],
      connections: {},
      settings: { executionOrder: 'v1' },
    });
  });

  it('gives a workflow without settings the empty settings n8n requires', () => {
    expect(workflowBody({ name: 'x', nodes: [], connections: {} })).toEqual({ name: 'x', nodes: [], connections: {}, settings: {} });
  });
});

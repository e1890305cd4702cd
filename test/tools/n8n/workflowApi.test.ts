import { describe, expect, it } from 'vitest';
import { workflowPath } from '../../../src/tools/n8n/workflowApi';

describe('workflowPath', () => {
  it("is the workflow's path under n8n's API, its id encoded so that it stays one segment", () => {
    expect(workflowPath('lcoyu2Fnpbyav28R')).toBe('/workflows/lcoyu2Fnpbyav28R');
    expect(workflowPath('a/b?c#d')).toBe('/workflows/a%2Fb%3Fc%23d');
  });
});

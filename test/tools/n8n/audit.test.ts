import { describe, expect, it } from 'vitest';
import { callDirect, sentToN8n } from '../../support/tools';

describe('get_audit_events', () => {
  it("runs n8n's audit with no options when none are asked, and answers n8n's report", async () => {
    const { result, sent } = await sentToN8n(() => callDirect('get_audit_events', {}));
    expect(sent).toEqual([{ method: 'POST', path: '/audit', query: '', body: {} }]);
    expect(result.json).toMatchObject({ 'Credentials Risk Report': { risk: 'credentials' } });
  });

  it('sends the categories and the days asked for as additionalOptions', async () => {
    const { sent } = await sentToN8n(() => callDirect('get_audit_events', { categories: ['credentials', 'nodes'], daysAbandonedWorkflow: 30 }));
    expect(sent[0]!.body).toEqual({ additionalOptions: { categories: ['credentials', 'nodes'], daysAbandonedWorkflow: 30 } });
  });
});

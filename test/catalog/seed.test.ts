import { describe, expect, it } from 'vitest';
import { buildCatalog, SpecError } from '../../src/catalog/build';
import { loadSeedCatalog } from '../../src/catalog/seed';
import { seedSpecs, spec } from '../support/catalog';

/** A SpecError naming this file and field. */
const specError = (path: string, field: string, message: RegExp) =>
  expect.objectContaining({ name: SpecError.name, path, field, message: expect.stringMatching(message) });

describe('loadSeedCatalog', () => {
  it('answers the specs in the order types.json lists them', () => {
    const files = new Map<string, unknown>([
      ['FLOW_NODE/IF.json', spec('IF', { node_type: 'FLOW_NODE' })],
      ['ACTION_NODE/B.json', spec('B')],
      ['ACTION_NODE/A.json', spec('A')],
    ]);
    const specs = loadSeedCatalog({ ACTION_NODE: ['A', 'B'], FLOW_NODE: ['IF'] }, files);
    expect(specs.map((s) => s.subtype)).toEqual(['A', 'B', 'IF']);
  });

  it('keeps seed files and types.json in step', () => {
    const files = new Map<string, unknown>([['ACTION_NODE/A.json', spec('A')]]);
    expect(() => loadSeedCatalog({ ACTION_NODE: ['A', 'B'] }, files)).toThrow(specError('ACTION_NODE/B.json', '(file)', /listed in types\.json but missing/));
    expect(() => loadSeedCatalog({}, files)).toThrow(specError('ACTION_NODE/A.json', '(file)', /not listed in types\.json/));
  });

  it('refuses a file whose node_type or subtype is not where it lies', () => {
    expect(() => loadSeedCatalog({ FLOW_NODE: ['A'] }, new Map([['FLOW_NODE/A.json', spec('A')]]))).toThrow(
      specError('FLOW_NODE/A.json', 'node_type', /is ACTION_NODE, but the file is under FLOW_NODE/),
    );
    expect(() => loadSeedCatalog({ ACTION_NODE: ['A'] }, new Map([['ACTION_NODE/A.json', spec('B')]]))).toThrow(
      specError('ACTION_NODE/A.json', 'subtype', /is B, but the file is named A/),
    );
  });

  it('validates each file as a spec', () => {
    const files = new Map<string, unknown>([['ACTION_NODE/A.json', { ...spec('A'), colour: 'red' }]]);
    expect(() => loadSeedCatalog({ ACTION_NODE: ['A'] }, files)).toThrow(SpecError);
  });
});

describe('the seed taxonomy in specs/seed', () => {
  it('validates, and its types map is exactly seed 002’s get_node_types example', async () => {
    const { types } = await buildCatalog(seedSpecs(), { sources: ['seed'] });
    expect(types).toEqual({
      ACTION_NODE: ['RUN_CODE', 'HTTP_REQUEST', 'PARSE_IMAGE', 'WEB_SEARCH', 'DATABASE_OPERATION', 'FILE_OPERATION', 'DATA_TRANSFORMATION'],
      TRIGGER_NODE: ['TRIGGER_MANUAL', 'TRIGGER_CRON', 'TRIGGER_WEBHOOK', 'TRIGGER_CHAT', 'TRIGGER_EMAIL', 'TRIGGER_FORM', 'TRIGGER_CALENDAR'],
      AI_AGENT_NODE: ['GEMINI_NODE', 'OPENAI_NODE', 'CLAUDE_NODE'],
      FLOW_NODE: ['IF', 'FILTER', 'LOOP', 'MERGE', 'SWITCH', 'WAIT'],
      TOOL_NODE: ['TOOL_GOOGLE_CALENDAR_MCP', 'CALENDAR', 'EMAIL', 'HTTP'],
      MEMORY_NODE: ['MEMORY_VECTOR_STORE', 'MEMORY_SIMPLE', 'MEMORY_DOCUMENT', 'MEMORY_BUFFER', 'MEMORY_KNOWLEDGE', 'MEMORY_EMBEDDING'],
      HUMAN_LOOP_NODE: ['HUMAN_GMAIL', 'HUMAN_SLACK', 'HUMAN_DISCORD', 'HUMAN_TELEGRAM', 'HUMAN_APP'],
      EXTERNAL_ACTION_NODE: [
        'EXTERNAL_GITHUB',
        'EXTERNAL_GOOGLE_CALENDAR',
        'EXTERNAL_TRELLO',
        'EXTERNAL_EMAIL',
        'EXTERNAL_SLACK',
        'EXTERNAL_API_CALL',
        'EXTERNAL_WEBHOOK',
        'EXTERNAL_NOTIFICATION',
      ],
    });
  });

  it('gives every seed node real parameters, ports and an example', () => {
    for (const s of seedSpecs()) {
      expect(s.parameters.length, s.subtype).toBeGreaterThan(0);
      expect(s.output_ports.length + s.input_ports.length, s.subtype).toBeGreaterThan(0);
      expect(s.examples.length, s.subtype).toBeGreaterThan(0);
      if (s.node_type === 'TRIGGER_NODE') expect(s.input_ports, s.subtype).toEqual([]);
    }
  });
});

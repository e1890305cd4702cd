import { z } from 'zod';
import { rawResult } from '../../../src/tools/tool';
import { defineTool } from '../../../src/tools/tool';

/**
 * Tools the MCP conformance suite calls (`npm run conformance`). Test-only: served by the test entry
 * (../worker.ts), never by the production Worker. They go through the same registry and runner as
 * real tools, so the suite exercises that path too.
 */

/** 1×1 red PNG. */
export const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
/** An empty 8 kHz mono WAV: header only. */
const WAV_BASE64 = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=';

const noInput = z.object({});
const fixture = { annotations: { readOnlyHint: true }, execution: 'direct' as const, input: noInput };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const CONFORMANCE_TOOLS = [
  defineTool({
    ...fixture,
    name: 'test_simple_text',
    title: 'Simple text',
    description: 'Returns a fixed text (conformance suite).',
    run: () => 'This is a simple text response for testing.',
  }),
  defineTool({
    ...fixture,
    name: 'test_image_content',
    title: 'Image content',
    description: 'Returns a 1×1 PNG (conformance suite).',
    run: () => rawResult({ content: [{ type: 'image', data: PNG_BASE64, mimeType: 'image/png' }] }),
  }),
  defineTool({
    ...fixture,
    name: 'test_audio_content',
    title: 'Audio content',
    description: 'Returns a tiny WAV (conformance suite).',
    run: () => rawResult({ content: [{ type: 'audio', data: WAV_BASE64, mimeType: 'audio/wav' }] }),
  }),
  defineTool({
    ...fixture,
    name: 'test_embedded_resource',
    title: 'Embedded resource',
    description: 'Returns an embedded text resource (conformance suite).',
    run: () =>
      rawResult({
        content: [
          {
            type: 'resource',
            resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' },
          },
        ],
      }),
  }),
  defineTool({
    ...fixture,
    name: 'test_multiple_content_types',
    title: 'Mixed content',
    description: 'Returns text, an image and a resource (conformance suite).',
    run: () =>
      rawResult({
        content: [
          { type: 'text', text: 'Multiple content types test:' },
          { type: 'image', data: PNG_BASE64, mimeType: 'image/png' },
          {
            type: 'resource',
            resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: '{"test":"data","value":123}' },
          },
        ],
      }),
  }),
  defineTool({
    ...fixture,
    name: 'test_tool_with_logging',
    title: 'Logging',
    description: 'Sends three log messages while it runs (conformance suite).',
    async run(_args, ctx) {
      await ctx.log('info', 'Tool execution started');
      await sleep(50);
      await ctx.log('info', 'Tool processing data');
      await sleep(50);
      await ctx.log('info', 'Tool execution completed');
      return 'Logging test completed';
    },
  }),
  defineTool({
    ...fixture,
    name: 'test_tool_with_progress',
    title: 'Progress',
    description: 'Reports progress 0, 50, 100 of 100 (conformance suite).',
    async run(_args, ctx) {
      await ctx.progress(0, 100);
      await sleep(50);
      await ctx.progress(50, 100);
      await sleep(50);
      await ctx.progress(100, 100);
      return 'Progress test completed';
    },
  }),
  defineTool({
    ...fixture,
    name: 'test_error_handling',
    title: 'Error',
    description: 'Always fails (conformance suite).',
    run: () => {
      throw new Error('This tool intentionally returns an error for testing');
    },
  }),
];

/** Writes specs/node-spec.schema.json from the zod NodeSpec schema, so editors can validate spec files. */
import { writeFileSync } from 'node:fs';
import { z } from 'zod';
import { NodeSpecSchema } from '../../src/catalog/nodeSpec.ts';

const schema = { ...z.toJSONSchema(NodeSpecSchema, { io: 'input' }), title: 'NodeSpec' };
writeFileSync('specs/node-spec.schema.json', JSON.stringify(schema, null, 2) + '\n');
console.log('wrote specs/node-spec.schema.json');

/**
 * A small n8n node package, built, in the shapes tsc emits (CommonJS, `exports.X = …`, `__exportStar`,
 * getters from Object.defineProperty, enums), written into a folder for the static reader to read.
 * Some of its code would leave a mark if it ever ran: `helpers.js` sets a global and writes a file
 * named RAN beside itself, and a getter throws. The reader must read its descriptions without either.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** What running any of the package's code would leave: the global it sets, the file it writes. */
export const RAN_GLOBAL = '__communityFixtureRan';
export const RAN_FILE = 'dist/RAN';

const TSC_PREAMBLE = `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
`;

export const FILES: Record<string, string> = {
  'package.json': JSON.stringify({
    name: 'n8n-nodes-fixture',
    version: '1.2.3',
    description: 'A fixture',
    n8n: {
      n8nNodesApiVersion: 1,
      credentials: ['dist/credentials/WidgetApi.credentials.js'],
      nodes: [
        'dist/nodes/Widget/Widget.node.js',
        'dist/nodes/Gadget/Gadget.node.js',
        'dist/nodes/Versioned/Versioned.node.js',
        'dist/nodes/Computed/Computed.node.js',
      ],
    },
  }),
  // Would leave a mark if loaded or called.
  'dist/nodes/Widget/helpers.js': `${TSC_PREAMBLE}exports.makeDefault = makeDefault;
globalThis.${RAN_GLOBAL} = true;
require("fs").writeFileSync(require("path").join(__dirname, "../../RAN"), "ran");
function makeDefault() {
    globalThis.${RAN_GLOBAL} = true;
    require("fs").writeFileSync(require("path").join(__dirname, "../../RAN"), "ran");
    return "computed";
}
`,
  'dist/nodes/Widget/descriptions/ItemDescription.js': `${TSC_PREAMBLE}exports.itemFields = exports.itemOperations = exports.Resource = void 0;
var Resource;
(function (Resource) {
    Resource["Item"] = "item";
    Resource["Folder"] = "folder";
})(Resource || (exports.Resource = Resource = {}));
const limit = {
    displayName: 'Limit',
    name: 'limit',
    type: 'number',
    default: 50,
    typeOptions: { minValue: -1 },
};
exports.itemOperations = [
    {
        displayName: 'Operation',
        name: 'operation',
        type: 'options',
        noDataExpression: true,
        displayOptions: { show: { resource: [Resource.Item] } },
        options: [
            { name: 'Get', value: 'get', action: 'Get an item' },
            { name: 'List', value: 'list', action: \`List items\` },
        ],
        default: 'get',
    },
];
exports.itemFields = [
    {
        displayName: 'Item ID',
        name: 'itemId',
        type: 'string',
        required: true,
        default: '',
        description: 'The ID ' + 'of the item',
        displayOptions: { show: { resource: [Resource.Item], operation: ['get'] } },
    },
    Object.assign(Object.assign({}, limit), { displayOptions: { show: { operation: ['list'] } } }),
];
`,
  'dist/nodes/Widget/descriptions/index.js': `"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    Object.defineProperty(o, k2, { enumerable: true, get: function() { return m[k]; } });
}) : (function(o, m, k, k2) { o[k2] = m[k]; }));
var __exportStar = (this && this.__exportStar) || function(m, exports) {
    for (var p in m) if (p !== "default" && !Object.prototype.hasOwnProperty.call(exports, p)) __createBinding(exports, m, p);
};
Object.defineProperty(exports, "__esModule", { value: true });
__exportStar(require("./ItemDescription"), exports);
`,
  'dist/nodes/Widget/Widget.node.js': `${TSC_PREAMBLE}exports.Widget = void 0;
const n8n_workflow_1 = require("n8n-workflow");
const descriptions_1 = require("./descriptions");
const helpers_1 = require("./helpers");
class Widget {
    constructor() {
        this.description = {
            displayName: 'Widget',
            name: 'widget',
            icon: 'file:widget.svg',
            group: ['transform'],
            version: [1, 1.1],
            subtitle: '={{$parameter["operation"]}}',
            description: \`Manage widgets\`,
            defaults: { name: 'Widget' },
            inputs: [n8n_workflow_1.NodeConnectionType.Main],
            outputs: ["main" /* NodeConnectionType.Main */],
            usableAsTool: true,
            credentials: [{ name: 'widgetApi', required: true }],
            properties: [
                {
                    displayName: 'Resource',
                    name: 'resource',
                    type: 'options',
                    noDataExpression: true,
                    options: [
                        { name: 'Item', value: descriptions_1.Resource.Item },
                        { name: 'Folder', value: descriptions_1.Resource.Folder },
                    ],
                    default: 'item',
                },
                ...descriptions_1.itemOperations,
                ...descriptions_1.itemFields,
                {
                    displayName: 'Note',
                    name: 'note',
                    type: 'string',
                    default: (0, helpers_1.makeDefault)(),
                    get placeholder() {
                        throw new Error('a getter of the package ran');
                    },
                },
            ],
        };
    }
    async execute() {
        return [this.getInputData()];
    }
}
exports.Widget = Widget;
`,
  'dist/nodes/Widget/Widget.node.json': JSON.stringify({
    node: 'n8n-nodes-fixture.widget',
    categories: ['Productivity'],
    alias: ['gizmo'],
    resources: { primaryDocumentation: [{ url: 'https://example.com/widget' }] },
  }),
  // ES2022 output: the description as a class field, the class re-exported through a getter.
  'dist/nodes/Gadget/GadgetNode.js': `${TSC_PREAMBLE}exports.Gadget = void 0;
class Gadget {
    description = {
        displayName: 'Gadget Trigger',
        name: 'gadgetTrigger',
        group: ['trigger'],
        version: 1,
        description: 'Starts on gadget events',
        defaults: { name: 'Gadget Trigger' },
        inputs: [],
        outputs: ['main'],
        webhooks: [{ name: 'default', httpMethod: 'POST', path: 'webhook' }],
        properties: [
            {
                displayName: 'Events',
                name: 'events',
                type: 'multiOptions',
                options: [{ name: 'Created', value: 'created' }, { name: 'Deleted', value: 'deleted' }],
                default: [],
            },
        ],
    };
}
exports.Gadget = Gadget;
`,
  'dist/nodes/Gadget/Gadget.node.js': `${TSC_PREAMBLE}exports.Gadget = void 0;
var GadgetNode_1 = require("./GadgetNode");
Object.defineProperty(exports, "Gadget", { enumerable: true, get: function () { return GadgetNode_1.Gadget; } });
`,
  // VersionedNodeType: a base description and a map of version classes, one shared by 2 and 2.1.
  'dist/nodes/Versioned/v1/VersionedV1.node.js': `${TSC_PREAMBLE}exports.VersionedV1 = void 0;
class VersionedV1 {
    constructor(baseDescription) {
        this.description = {
            ...baseDescription,
            version: 1,
            defaults: { name: 'Versioned' },
            inputs: ['main'],
            outputs: ['main'],
            properties: [{ displayName: 'Mode', name: 'mode', type: 'options', options: [{ name: 'Old', value: 'old' }], default: 'old' }],
        };
    }
}
exports.VersionedV1 = VersionedV1;
`,
  'dist/nodes/Versioned/v2/VersionedV2.node.js': `${TSC_PREAMBLE}exports.VersionedV2 = void 0;
const versionDescription = {
    version: [2, 2.1],
    defaults: { name: 'Versioned' },
    inputs: ['main'],
    outputs: ['main'],
    properties: [
        {
            displayName: 'Mode',
            name: 'mode',
            type: 'options',
            options: [{ name: 'New', value: 'new' }, { name: 'Newer', value: 'newer' }],
            default: 'new',
        },
    ],
};
class VersionedV2 {
    constructor(baseDescription) {
        this.description = Object.assign(Object.assign({}, baseDescription), versionDescription);
    }
}
exports.VersionedV2 = VersionedV2;
`,
  'dist/nodes/Versioned/Versioned.node.js': `${TSC_PREAMBLE}exports.Versioned = void 0;
const n8n_workflow_1 = require("n8n-workflow");
const VersionedV1_node_1 = require("./v1/VersionedV1.node");
const VersionedV2_node_1 = require("./v2/VersionedV2.node");
class Versioned extends n8n_workflow_1.VersionedNodeType {
    constructor() {
        const baseDescription = {
            displayName: 'Versioned',
            name: 'versioned',
            group: ['transform'],
            description: 'A node with versions',
            defaultVersion: 2.1,
        };
        const nodeVersions = {
            1: new VersionedV1_node_1.VersionedV1(baseDescription),
            2: new VersionedV2_node_1.VersionedV2(baseDescription),
            2.1: new VersionedV2_node_1.VersionedV2(baseDescription),
        };
        super(nodeVersions, baseDescription);
    }
}
exports.Versioned = Versioned;
`,
  // Its properties are computed by a call: nothing static to read.
  'dist/nodes/Computed/Computed.node.js': `${TSC_PREAMBLE}exports.Computed = void 0;
function buildProperties() {
    globalThis.${RAN_GLOBAL} = true;
    return [];
}
class Computed {
    constructor() {
        this.description = {
            displayName: 'Computed',
            name: 'computed',
            group: ['transform'],
            version: 1,
            defaults: { name: 'Computed' },
            inputs: ['main'],
            outputs: ['main'],
            properties: buildProperties(),
        };
    }
}
exports.Computed = Computed;
`,
};

/** Writes the package into `dir` (its package.json at the top); `without` leaves files out (an unbuilt package). */
export function writeFixturePackage(dir: string, without: string[] = []): string {
  for (const [file, text] of Object.entries(FILES)) {
    if (without.some((w) => file.startsWith(w))) continue;
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return dir;
}

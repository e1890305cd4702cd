import { z } from 'zod';

/** Seed 002's eight node types. */
export const NODE_TYPES = [
  'ACTION_NODE',
  'TRIGGER_NODE',
  'AI_AGENT_NODE',
  'FLOW_NODE',
  'TOOL_NODE',
  'MEMORY_NODE',
  'HUMAN_LOOP_NODE',
  'EXTERNAL_ACTION_NODE',
] as const;
export const NodeTypeSchema = z.enum(NODE_TYPES);
export type NodeType = z.infer<typeof NodeTypeSchema>;

const PARAMETER_TYPES = [
  'string',
  'number',
  'integer',
  'boolean',
  'enum',
  'multi_enum',
  'json',
  'code',
  'url',
  'datetime',
  'color',
  'credential',
  'collection',
  'fixed_collection',
  'resource_locator',
  'array',
  'notice',
  /** n8n's filter conditions (`{conditions: [...], combinator, options}`). */
  'filter',
  /** n8n's assignments (`{assignments: [{id, name, value, type}]}`), as Set v3 writes them. */
  'assignment_collection',
  /** n8n's column mapping (`{mappingMode, value, schema}`). */
  'resource_mapper',
  /** Not shown to users but holds a value other parameters' conditions can read. */
  'hidden',
] as const;

/** A choice's value as n8n stores it: options are strings, numbers or booleans. */
export type OptionValue = string | number | boolean;

/** When a parameter applies: n8n's displayOptions, kept as conditions on other parameters' values. */
const DisplayConditionsSchema = z
  .object({
    show: z.record(z.string(), z.array(z.unknown())).optional(),
    hide: z.record(z.string(), z.array(z.unknown())).optional(),
  })
  .strict();

export interface Parameter {
  name: string;
  display_name?: string;
  type: (typeof PARAMETER_TYPES)[number];
  required: boolean;
  default_value?: unknown;
  description: string;
  enum_values?: OptionValue[] | null;
  /**
   * What each choice does, one per enum_values entry: n8n's description of it, else its label where the
   * label says more than the value, and what n8n tells its own AI builder about it ('' where n8n says nothing).
   */
  enum_descriptions?: string[];
  /**
   * n8n's editor loads the choices when the node is opened (loadOptions: from the service, or computed
   * by the node): enum_values, if any, are those the description itself names, not all.
   */
  dynamic_options?: boolean;
  /** Choices n8n 1.x had for this typeVersion that n8n 2 removed. */
  legacy_values?: OptionValue[];
  /** A fixed_collection (or other parameter) that holds a list of values rather than one. */
  multiple_values?: boolean;
  /** A resource_locator's modes (`list`, `id`, `url`…): the `mode` its `{__rl, mode, value}` may name. */
  modes?: string[];
  /** resource_locator: each mode as n8n's description has it, with the pattern n8n checks its value against. */
  locator_modes?: LocatorMode[];
  /** filter: the filter version (its `options.version`) per typeVersion, as [typeVersion, version] pairs. */
  filter_versions?: [number, number][];
  /** resource_mapper: what the mapping does (n8n's `add`, `update`, `upsert`, `map`); its fields come from the service at edit time. */
  mapper_mode?: string;
  /** What n8n tells its own AI workflow builder about this parameter (its builderHint), in workflow JSON notation. */
  hint?: string;
  validation_pattern?: string | null;
  display_options?: z.infer<typeof DisplayConditionsSchema>;
  /** Children of collection and fixed_collection parameters. */
  options?: Parameter[];
}

export interface LocatorMode {
  name: string;
  placeholder?: string;
  /** n8n checks the value against `^pattern$`, and says `error` when it does not match. */
  pattern?: string;
  error?: string;
}

const LocatorModeSchema = z
  .object({ name: z.string().min(1), placeholder: z.string().optional(), pattern: z.string().optional(), error: z.string().optional() })
  .strict();

export const ParameterSchema: z.ZodType<Parameter> = z.lazy(() =>
  z
    .object({
      name: z.string().min(1),
      display_name: z.string().optional(),
      type: z.enum(PARAMETER_TYPES),
      required: z.boolean(),
      default_value: z.unknown().optional(),
      description: z.string(),
      enum_values: z
        .array(z.union([z.string(), z.number(), z.boolean()]))
        .nullable()
        .optional(),
      enum_descriptions: z.array(z.string()).optional(),
      dynamic_options: z.boolean().optional(),
      legacy_values: z.array(z.union([z.string(), z.number(), z.boolean()])).optional(),
      multiple_values: z.boolean().optional(),
      modes: z.array(z.string()).optional(),
      locator_modes: z.array(LocatorModeSchema).optional(),
      filter_versions: z.array(z.tuple([z.number(), z.number()])).optional(),
      mapper_mode: z.string().optional(),
      hint: z.string().optional(),
      validation_pattern: z.string().nullable().optional(),
      display_options: DisplayConditionsSchema.optional(),
      options: z.array(ParameterSchema).optional(),
    })
    .strict(),
);

const DataFormatSchema = z
  .object({
    mime_type: z.string().min(1),
    schema: z
      .union([z.string(), z.record(z.string(), z.unknown())])
      .nullable()
      .optional(),
    examples: z.array(z.unknown()).nullable().optional(),
  })
  .strict();

const PortSchema = z
  .object({
    name: z.string().min(1),
    /** "main" for item data; n8n's AI connection kinds ("ai_languageModel", "ai_tool", …) otherwise. */
    type: z.string().min(1),
    required: z.boolean(),
    description: z.string(),
    /** null: unlimited. */
    max_connections: z.number().int().positive().nullable(),
    /** Sub-node types this AI input refuses (n8n's port filter). */
    excluded_nodes: z.array(z.string()).optional(),
    data_format: DataFormatSchema.nullable().optional(),
    validation_schema: z.record(z.string(), z.unknown()).nullable().optional(),
  })
  .strict();

const CredentialSchema = z
  .object({
    name: z.string().min(1),
    required: z.boolean(),
    display_options: DisplayConditionsSchema.optional(),
  })
  .strict();

const ExampleSchema = z
  .object({
    name: z.string().min(1),
    description: z.string(),
    parameters: z.record(z.string(), z.unknown()),
    input: z.unknown().optional(),
    output: z.unknown().optional(),
    /** The `resource:operation` (or `operation`) it configures, for nodes that have them. */
    operation: z.string().optional(),
    /**
     * n8n examples: the typeVersions of its description it is valid at once set to each (src/catalog/exampleVersion.ts);
     * absent, every one.
     */
    type_versions: z.array(z.number()).min(1).optional(),
  })
  .strict();

/** The observed runs given items in which a chain can stop: the sample, items without the fields read, either of two inputs empty. */
export const RAN_OUT_ON = ['items', 'missing', 'firstEmpty', 'secondEmpty'] as const;
export type RanOutOn = (typeof RAN_OUT_ON)[number];

/** What one configuration of a node did on a real n8n (src/catalog/observed.ts; specs/observed/). */
const ObservedBehaviourSchema = z
  .object({
    configuration: z.string(),
    parameters: z.record(z.string(), z.unknown()),
    outputs: z.array(
      z
        .object({
          items: z.string(),
          fields: z.record(z.string(), z.string()),
          input_fields: z.string(),
          order: z.string().optional(),
          example: z.unknown().optional(),
        })
        .strict(),
    ),
    fails: z.string().optional(),
    on_zero_items: z.string(),
    on_missing_field: z.string(),
    on_one_input_empty: z.string().optional(),
    runs_out: z.array(z.number().int().nonnegative()),
    /** The runs in which an output of runs_out put out nothing. */
    ran_out_on: z.array(z.enum(RAN_OUT_ON)),
    fails_on_missing_field: z.string().optional(),
  })
  .strict();

export const NodeSpecSchema = z
  .object({
    node_type: NodeTypeSchema,
    /** Unique within the catalog: the seed's names (HTTP_REQUEST) or n8n type names (n8n-nodes-base.gmail). */
    subtype: z.string().min(1).max(200),
    version: z.string().min(1),
    display_name: z.string().min(1),
    description: z.string().min(1),
    aliases: z.array(z.string()),
    categories: z.array(z.string()),
    source: z.enum(['seed', 'n8n']),
    documentation_url: z.url().nullable(),
    parameters: z.array(ParameterSchema),
    input_ports: z.array(PortSchema),
    output_ports: z.array(PortSchema),
    examples: z.array(ExampleSchema),
    /** n8n nodes: what n8n's node panel lists as the node's actions ("Send a message"). */
    actions: z.array(z.string().min(1)).optional(),
    /**
     * n8n nodes: the typeVersions this description covers (one description can span several, telling
     * them apart with `@version` conditions), and every typeVersion of the node, newest last.
     */
    type_versions: z.array(z.number()).min(1).optional(),
    node_versions: z.array(z.number()).min(1).optional(),
    /** The typeVersion n8n's editor gives a new node. */
    default_version: z.number().optional(),
    /** In n8n 1.x but no longer in the current n8n. */
    legacy: z.boolean().optional(),
    /**
     * A community node: the npm package it comes from (n8n installs it under Settings → Community Nodes,
     * or `npm install` in ~/.n8n/nodes), and whether n8n lists the package as verified. Absent for n8n's own nodes.
     */
    community: z
      .object({ package: z.string().min(1), version: z.string().min(1), verified: z.boolean(), install: z.string().min(1) })
      .strict()
      .optional(),
    /** n8n leaves it out of the editor's node panel (deprecated, like Function and Cron, or internal); workflows may still use it. */
    hidden: z.boolean().optional(),
    /** n8n gives the node a webhook URL: it needs a unique `webhookId` in workflow JSON. */
    has_webhooks: z.boolean().optional(),
    /** An AI-agent tool n8n derives from a node (`…slackTool` from `…slack`): that node's type. */
    tool_of: z.string().optional(),
    /** What n8n tells its own AI workflow builder about the node (its builderHint): when it is the right one. */
    builder_hint: z.string().optional(),
    /** Nodes n8n's builder hints pair with this one, and how. */
    related_nodes: z.array(z.object({ subtype: z.string(), hint: z.string() }).strict()).optional(),
    /** Credential types the node takes, each with the parameter values under which it applies. */
    credentials: z.array(CredentialSchema).optional(),
    /**
     * Ports n8n computes from the node's parameters: the id of the port function (src/catalog/ports)
     * that does it. input_ports/output_ports then list every port the function can produce.
     */
    dynamic_ports: z.object({ inputs: z.string().optional(), outputs: z.string().optional() }).strict().optional(),
    /** What real workflows set on the node, by the rule of src/catalog/essentials.ts: what essentials carry. */
    common_parameters: z
      .object({
        version: z.number(),
        workflows: z.number().int().positive(),
        parameters: z.array(z.string()),
        operations: z.record(z.string(), z.array(z.string())).optional(),
      })
      .strict()
      .optional(),
    /**
     * What the node did on a real n8n (`npm run catalog:observe`), per typeVersion it covers: each
     * configuration observed, with the release it ran on and, for a typeVersion that release lacks,
     * the one whose runs are carried over.
     */
    observed: z
      .object({
        n8n: z.string(),
        /** The fields of the sample items the runs were given (input 1): what an output kept or dropped of its input. */
        sample_fields: z.array(z.string()),
        versions: z.record(
          z.string(),
          z
            .object({
              carried_from: z.number().optional(),
              /** The typeVersion (of this description) whose configurations this one's runs repeat, listed there only. */
              same_as: z.string().optional(),
              configurations: z.array(ObservedBehaviourSchema).optional(),
            })
            .strict(),
        ),
      })
      .strict()
      .optional(),
  })
  .strict();

export type NodeSpec = z.infer<typeof NodeSpecSchema>;
export type ObservedBehaviour = z.infer<typeof ObservedBehaviourSchema>;
export type Port = z.infer<typeof PortSchema>;
export type Credential = z.infer<typeof CredentialSchema>;

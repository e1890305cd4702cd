import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  GetPromptRequestSchema,
  InitializeRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { HttpError } from '../http/errors';
import { ErrorCode, type JsonRpcRequest } from './jsonrpc';

/** The SDK's own schemas for the client requests an MCP server answers. */
const SCHEMAS = new Map(
  [
    InitializeRequestSchema,
    PingRequestSchema,
    ListToolsRequestSchema,
    CallToolRequestSchema,
    ListResourcesRequestSchema,
    ListResourceTemplatesRequestSchema,
    ReadResourceRequestSchema,
    SubscribeRequestSchema,
    UnsubscribeRequestSchema,
    ListPromptsRequestSchema,
    GetPromptRequestSchema,
    SetLevelRequestSchema,
    CompleteRequestSchema,
  ].map((schema) => [schema.shape.method.value as string, schema]),
);

/**
 * Throws HttpError(400, -32602) when a known method's params are malformed. The SDK would answer
 * these with -32603 (it lets the schema error escape), which tells the client nothing.
 */
export function assertValidParams(request: JsonRpcRequest): void {
  const schema = SCHEMAS.get(request.method);
  if (!schema) return;
  const result = schema.safeParse({ method: request.method, params: request.params });
  if (result.success) return;
  const issue = result.error.issues[0];
  const where = issue?.path.slice(1).join('.') || 'params';
  throw new HttpError(400, ErrorCode.InvalidParams, `Invalid params for ${request.method}: ${where}: ${issue?.message}`, {}, request.id);
}

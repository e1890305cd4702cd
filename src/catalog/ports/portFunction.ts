/** n8n's expression for a node's computed ports, as a function of its parameters and typeVersion. */
export type PortFunction = (parameters: unknown, typeVersion: number) => unknown;

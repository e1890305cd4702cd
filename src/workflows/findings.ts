/** What validate_node and validate_workflow answer: errors that stop a workflow, warnings that may. */
export interface Finding {
  /** The node's name, or null for the workflow as a whole. */
  node: string | null;
  /** Where in the node or workflow: `parameters.channelId`, `connections.IF.main[2]`. */
  path?: string;
  code: string;
  message: string;
}

export interface ValidationResult {
  valid: boolean;
  errors: Finding[];
  warnings: Finding[];
}

/** Collects findings while the rules run. */
export class Findings {
  readonly errors: Finding[] = [];
  readonly warnings: Finding[] = [];

  error(node: string | null, code: string, message: string, path?: string): void {
    this.errors.push(finding(node, code, message, path));
  }

  warning(node: string | null, code: string, message: string, path?: string): void {
    this.warnings.push(finding(node, code, message, path));
  }

  result(): ValidationResult {
    return { valid: this.errors.length === 0, errors: this.errors, warnings: this.warnings };
  }
}

function finding(node: string | null, code: string, message: string, path?: string): Finding {
  return path === undefined ? { node, code, message } : { node, path, code, message };
}

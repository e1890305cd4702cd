/** What validate_node and validate_workflow answer: errors that stop a workflow, warnings that may. */
export interface Finding {
  /** The node's name, or null for the workflow as a whole. */
  node: string | null;
  /** Where in the node or workflow: `parameters.channelId`, `connections.IF.main[2]`. */
  path?: string;
  code: string;
  message: string;
}

export type Severity = 'error' | 'warning';

export interface ValidationResult {
  valid: boolean;
  errors: Finding[];
  warnings: Finding[];
  /** How many findings past the first MAX_FINDINGS of each kind were left out (only when some were). */
  omitted?: { errors: number; warnings: number };
}

/** Errors listed in an answer, and as many warnings: a workflow can have far more, and an answer must stay readable. */
export const MAX_FINDINGS = 100;

/** Longest message kept (a backstop: names and values are clipped where messages quote them). */
const MAX_MESSAGE = 1_000;
/** Longest path kept (real ones are under 100 characters). */
export const MAX_PATH = 300;

/** A caller's text as a message holds it: at most `max` characters, an ellipsis marking the cut. */
export const clip = (text: string, max = 100): string => (text.length > max ? `${text.slice(0, max)}…` : text);

/** A finding's or fix's path, clipped (parameter names may be long, and a path strings them together). */
export const clipPath = (path: string): string => clip(path, MAX_PATH);

/** A name (of a node, parameter, connection type) in double quotes, clipped. */
export const quote = (name: string): string => `"${clip(name)}"`;

/** What a value is, for a message that says what was given instead: `an object`, `the text "…"`, `number 3`. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `the text ${JSON.stringify(clip(value, 40))}`;
  return `${typeof value} ${JSON.stringify(value)}`;
}

/** What tells two findings apart across validations of a workflow (edit_workflow: new errors). */
export const findingKey = (f: Finding): string => JSON.stringify([f.code, f.node, f.path ?? null]);

export interface FindingsOptions {
  /** Kept of each kind; the rest are counted. Default MAX_FINDINGS. */
  max?: number;
  /** Sees every finding, kept or not (edit_workflow compares them without keeping them all). */
  observe?: (finding: Finding, severity: Severity) => void;
}

/**
 * Collects findings while the rules run: the first `max` of each kind in full, the rest counted, so
 * that neither an answer nor the memory behind it grows with what a workflow gets wrong.
 */
export class Findings {
  readonly errors: Finding[] = [];
  readonly warnings: Finding[] = [];
  private readonly left = { errors: 0, warnings: 0 };
  private readonly codes = new Set<string>();

  constructor(private readonly options: FindingsOptions = {}) {}

  error(node: string | null, code: string, message: string, path?: string): void {
    this.add(finding(node, code, message, path), 'error');
  }

  warning(node: string | null, code: string, message: string, path?: string): void {
    this.add(finding(node, code, message, path), 'warning');
  }

  /** Observed as it is; kept with its message and path clipped. */
  add(f: Finding, severity: Severity): void {
    this.options.observe?.(f, severity);
    this.codes.add(f.code);
    const [list, kind] = severity === 'error' ? [this.errors, 'errors' as const] : [this.warnings, 'warnings' as const];
    if (list.length < (this.options.max ?? MAX_FINDINGS)) list.push(bounded(f));
    else this.left[kind]++;
  }

  /** Another collector's findings, all of which it kept (`complete`). */
  addAll(other: Findings): void {
    for (const f of other.errors) this.add(f, 'error');
    for (const f of other.warnings) this.add(f, 'warning');
  }

  /** Nothing was left out. */
  get complete(): boolean {
    return this.left.errors + this.left.warnings === 0;
  }

  /** All errors, the left-out ones included. */
  get errorCount(): number {
    return this.errors.length + this.left.errors;
  }

  /** Whether any finding, kept or not, had this code. */
  has(code: string): boolean {
    return this.codes.has(code);
  }

  result(): ValidationResult {
    const omitted = this.left.errors + this.left.warnings > 0 ? { omitted: { ...this.left } } : {};
    return { valid: this.errorCount === 0, errors: this.errors, warnings: this.warnings, ...omitted };
  }
}

const finding = (node: string | null, code: string, message: string, path?: string): Finding =>
  path === undefined ? { node, code, message } : { node, path, code, message };

const bounded = (f: Finding): Finding =>
  f.path === undefined ? { ...f, message: clip(f.message, MAX_MESSAGE) } : { ...f, path: clipPath(f.path), message: clip(f.message, MAX_MESSAGE) };

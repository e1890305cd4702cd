/** What `npm run keys` takes (documented in ./cli.ts), and how it stops: 2 for a usage error, 1 for a failure. */
const USAGE = `usage: npm run keys -- COMMAND (--local [--persist-to DIR] [--dev-vars FILE] | --remote)
  keys:        create --name NAME --scopes S1,S2 [--expires 30d] [--workspace ID] | list | revoke (--id ID | --name NAME)
  workspaces:  workspace create --name NAME [--classes code,credentials|none] | workspace list | workspace remove --id ID
               workspace default --id ID --connection NAME | workspace classes --id ID --classes code,credentials|none|deployment
  connections: connection add --workspace ID --name NAME --url URL   (n8n API key from $N8N_CONNECTION_KEY, else one line of stdin)
               connection test|remove --workspace ID --name NAME | connection list --workspace ID
               connection rename --workspace ID --name OLD --to NEW | connection reseal [--workspace ID]
  sealing key: secret [--local [--dev-vars FILE]]   a new CONNECTION_KEYS entry (printed, or put into .dev.vars)
  --local: what npm run dev serves; --remote: the deployed namespace`;

/** The command line's flags (cli.ts parses them). */
export interface Flags {
  name?: string | undefined;
  scopes?: string | undefined;
  expires?: string | undefined;
  id?: string | undefined;
  workspace?: string | undefined;
  classes?: string | undefined;
  connection?: string | undefined;
  url?: string | undefined;
  to?: string | undefined;
  local?: boolean | undefined;
  remote?: boolean | undefined;
  'persist-to'?: string | undefined;
  'dev-vars'?: string | undefined;
}

/** A usage error: the message, then how to call. */
export function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

/** A failure: what went wrong and the fix, nothing else. */
export function die(message: string): never {
  console.error(message);
  process.exit(1);
}

/** A string flag's value, or a usage error saying that `command` needs it. */
export const need = (flags: Flags, flag: 'name' | 'id' | 'workspace' | 'classes' | 'connection' | 'url' | 'to', command: string): string =>
  flags[flag] ?? fail(`${command} needs --${flag}`);

export const iso = (ms: number | undefined) => (ms === undefined ? '-' : new Date(ms).toISOString().slice(0, 16).replace('T', ' '));

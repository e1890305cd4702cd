import { z } from 'zod';

/**
 * The ids n8n makes, as n8n 1.123.81 makes them (@n8n/db): workflows, credentials, tags, projects and
 * variables get a nanoid of 16 letters and digits (generateNanoId over n8n-workflow's ALPHABET); an
 * instance from before 1.0 kept its numeric ids, as strings; the column takes 36 characters. Executions
 * are numbered; users are UUIDs. An id is checked before it goes into a URL: encodeURIComponent leaves
 * "." and "..", which the URL parser then resolves (`get_workflow {"id": "."}` listed every workflow).
 */
const STRING_ID = /^[0-9A-Za-z]{1,36}$/;

/** An id of n8n's string-id entities (workflow, credential, tag, project, variable). */
export const isN8nId = (value: string): boolean => STRING_ID.test(value);

export const n8nId = (what: string) =>
  z.string().regex(STRING_ID, `a ${what} id is 1 to 36 letters and digits, as n8n makes them (e.g. "lcoyu2Fnpbyav28R")`).describe(`The ${what}'s id`);

export const executionId = z
  .string()
  .regex(/^\d{1,19}$/, 'an execution id is a number')
  .describe("The execution's id");

/** n8n's /users/{id} takes a user's id or e-mail address. */
export const userIdOrEmail = z
  .string()
  .refine((value) => z.uuid().safeParse(value).success || z.email().safeParse(value).success, 'a user is named by its id (a UUID) or its e-mail address')
  .describe("The user's id or email");

/** A credential type's name, as n8n's node packages name them (githubApi, httpHeaderAuth, oAuth2Api). */
export const credentialTypeName = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_-]{0,127}$/, 'a credential type is a name of letters, digits, _ and - (e.g. githubApi)')
  .describe('The credential type, e.g. githubApi');

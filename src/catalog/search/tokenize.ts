/** Words that carry no meaning in a node search. */
const STOP = new Set(
  'a an the to for of in on and or with into from by my me i is are be using use via that this it its at as node nodes n8n'.split(' '),
);

/**
 * Lowercase terms of a text, light-stemmed. A camelCase or digit-joined word also yields its parts, so
 * "googleSheets" matches "google sheets" and "OpenAi" matches both "openai" and "open ai".
 */
export function tokenize(text: string): string[] {
  const terms: string[] = [];
  for (const word of text.split(/[^A-Za-z0-9]+/)) {
    if (!word) continue;
    const lower = word.toLowerCase();
    if (!STOP.has(lower)) terms.push(stem(lower));
    const parts = word.split(/(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=[a-zA-Z])(?=[0-9])/);
    if (parts.length > 1) {
      for (const part of parts) {
        const p = part.toLowerCase();
        if (p.length > 1 && !STOP.has(p)) terms.push(stem(p));
      }
    }
  }
  return terms;
}

/** A small suffix stripper: enough that "documents"/"document" and "created"/"create" meet. */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  let w = word;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (/(ss|us|is)$/.test(w)) {
    // keep: "address", "status", "analysis"
  } else if (/(xes|ches|shes|sses)$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s')) w = w.slice(0, -1);
  if (w.endsWith('ly') && w.length > 5) w = w.slice(0, -2);
  else if (w.endsWith('ing') && w.length > 5) w = w.slice(0, -3);
  else if (w.endsWith('ed') && w.length > 4) w = w.slice(0, -2);
  if (w.endsWith('e') && w.length > 4) w = w.slice(0, -1);
  return w;
}

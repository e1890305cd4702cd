import { stemmer } from 'stemmer';

/** Words that carry no meaning in a node search; a verb's particle ("pull out", "sign up") among them. */
const STOP = new Set(
  (
    'a an the to for of in on and or with into from by my me i is are be using use via that this it its at as ' +
    'node nodes how do does can could should would what which we our you your want need some someone something out up off'
  ).split(' '),
);

/** The words of a text as written: split on anything but letters and digits. */
export const words = (text: string): string[] => text.split(/[^A-Za-z0-9]+/).filter(Boolean);

/** A word of a text: as written (lowercased) and as the index knows it (stemmed). */
export interface Token {
  word: string;
  term: string;
}

/**
 * The words of a text, lowercased and stemmed, stop words left out. A camelCase or digit-joined word
 * also yields its parts, so "googleSheets" matches "google sheets" and "OpenAi" matches "openai" and "ai".
 */
export function analyze(text: string): Token[] {
  const tokens: Token[] = [];
  const add = (word: string) => {
    if (!STOP.has(word)) tokens.push({ word, term: stem(word) });
  };
  for (const word of words(text)) {
    add(word.toLowerCase());
    const parts = word.split(/(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=[a-zA-Z])(?=[0-9])|(?<=[0-9])(?=[a-zA-Z])/);
    if (parts.length > 1) for (const part of parts) if (part.length > 1) add(part.toLowerCase());
  }
  return tokens;
}

/** The index terms of a text (see analyze). */
export const tokenize = (text: string): string[] => analyze(text).map((t) => t.term);

/** Porter's stemmer, for words: numbers and codes with digits stay as they are. */
export const stem = (word: string): string => (/\d/.test(word) ? word : stemmer(word));

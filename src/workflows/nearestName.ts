/** The choice a caller's misspelt name most likely meant: same letters but case, else within a few edits. */
import { withinDistance } from '../catalog/search/editDistance';
import { quote } from './findings';

export function nearestName(name: string, choices: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  const sameLetters = choices.find((c) => c.toLowerCase() === lower);
  if (sameLetters !== undefined) return sameLetters;
  // Short names get one edit: two would turn "lt" into "gt" or "eq".
  const edits = name.length <= 4 ? 1 : 2;
  for (let d = 1; d <= edits; d++) {
    const near = choices.find((c) => withinDistance(lower, c.toLowerCase(), d));
    if (near !== undefined) return near;
  }
  return undefined;
}

/** " Did you mean "x"?" for a finding's message, or nothing. */
export function didYouMean(name: string, choices: readonly string[]): string {
  const near = nearestName(name, choices);
  return near === undefined ? '' : ` Did you mean ${quote(near)}?`;
}

/** `"a", "b", "c"`: a finding's list of valid choices. */
export const choiceList = (choices: readonly (string | number)[]): string => choices.map((c) => JSON.stringify(c)).join(', ');

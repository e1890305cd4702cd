import type { WordTable } from '../../src/catalog/search/semantic';

/** A small table on three axes of meaning: money, music, weather (the fourth is noise every word shares a little of). */
export const fixtureTable = (): WordTable => {
  const rows: [string, number[]][] = [
    ['archive', [0, 0, 0, 60]],
    ['bill', [110, 0, 0, 10]],
    ['forecast', [0, 0, 110, 10]],
    ['invoice', [120, 0, 0, 10]],
    ['music', [0, 120, 0, 10]],
    ['payment', [100, 10, 0, 10]],
    ['playlist', [0, 110, 0, 10]],
    ['rain', [0, 0, 120, 10]],
    ['song', [5, 120, 0, 10]],
    ['weather', [0, 0, 115, 10]],
  ];
  return { dims: 4, words: rows.map(([w]) => w), vectors: Int8Array.from(rows.flatMap(([, v]) => v)) };
};

import { describe, expect, it } from 'vitest';
import { connectionMap, isDict, targetLists, targetsOf } from '../../src/workflows/connectionMap';
import { expectOwn, fromJson } from '../support/specialNames';

describe('the connections object as edits change it', () => {
  it('keeps every source and type as an own key, "__proto__" included, and what is not an object as it is', () => {
    const raw = fromJson([
      ['__proto__', fromJson([['__proto__', [[{ node: 'a' }]]]])],
      ['constructor', 'main'],
    ]);
    const map = connectionMap(raw);
    expect(Object.getPrototypeOf(map)).toBeNull();
    expect(isDict(map['__proto__'])).toBe(true);
    expectOwn(map['__proto__'], '__proto__', [[{ node: 'a' }]]);
    expectOwn(map, 'constructor', 'main');
    expect(JSON.stringify(map)).toBe('{"__proto__":{"__proto__":[[{"node":"a"}]]},"constructor":"main"}');
    expect(connectionMap([{ a: 1 }])).toEqual({});
  });

  it('lists each output whose targets are a list, and nothing of the wrong shape', () => {
    const map = connectionMap({ A: { main: [[{ node: 'B' }], null, 'x', [7]], ai_tool: 'y' }, B: 3, C: { main: [[]] } });
    expect([...targetLists(map)].map((list) => [list.source, list.type, list.output, targetsOf(list)])).toEqual([
      ['A', 'main', 0, [{ node: 'B' }]],
      ['A', 'main', 3, [7]],
      ['C', 'main', 0, []],
    ]);
  });
});

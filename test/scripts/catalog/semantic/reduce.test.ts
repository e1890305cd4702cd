import { describe, expect, it } from 'vitest';
import { centre, normalise, principalAxes, project, quantize } from '../../../../scripts/catalog/semantic/reduce';

const rows = (...r: number[][]) => Float32Array.from(r.flat());
const close = (actual: ArrayLike<number>, expected: number[], digits = 5) => expected.forEach((x, i) => expect(actual[i]).toBeCloseTo(x, digits));

describe('centre and normalise', () => {
  it('subtracts the mean row, then scales each row to length 1 (a zero row stays zero)', () => {
    const centred = centre(rows([1, 2], [3, 6]), 2);
    close(centred, [-1, -2, 1, 2]);
    close(normalise(centred, 2), [-1 / Math.sqrt(5), -2 / Math.sqrt(5), 1 / Math.sqrt(5), 2 / Math.sqrt(5)]);
    close(normalise(rows([0, 0], [3, 4]), 2), [0, 0, 0.6, 0.8]);
  });
});

describe('principalAxes and project', () => {
  // Points spread along (1, 1, 0) a lot, along (1, -1, 0) a little, not at all along z.
  const points = centre(rows([3, 3, 0], [-3, -3, 0], [1, -1, 0], [-1, 1, 0], [2, 2, 0], [-2, -2, 0]), 3);

  it('finds the directions of largest variance first, orthonormal', () => {
    const axes = principalAxes(points, 3, 2);
    const first = [...axes.subarray(0, 3)];
    const second = [...axes.subarray(3, 6)];
    close(first.map(Math.abs), [Math.SQRT1_2, Math.SQRT1_2, 0]);
    expect(first[0]! * first[1]!).toBeGreaterThan(0);
    close(second.map(Math.abs), [Math.SQRT1_2, Math.SQRT1_2, 0]);
    expect(second[0]! * second[1]!).toBeLessThan(0);
    expect(first.reduce((s, x, i) => s + x * second[i]!, 0)).toBeCloseTo(0, 6);
    // The same rows always give the same axes.
    expect([...principalAxes(points, 3, 2)]).toEqual([...axes]);
  });

  it('projects rows onto the axes, keeping their distances within the kept directions', () => {
    const axes = principalAxes(points, 3, 2);
    const projected = project(points, 3, axes);
    expect(projected).toHaveLength(12);
    close(projected.subarray(0, 2).map(Math.abs), [3 * Math.SQRT2, 0]);
  });

  it('refuses to keep more dimensions than there are', () => {
    expect(() => principalAxes(points, 3, 4)).toThrow(/4 of 3/);
  });
});

describe('quantize', () => {
  it('maps the table to int8 under one scale, relative lengths kept, outliers clipped', () => {
    const { bytes, scale } = quantize(rows([0.5, -0.25], [0.1, 0]), 1);
    expect(scale).toBeCloseTo(254);
    expect([...bytes]).toEqual([127, -63, 25, 0]);
    const clipped = quantize(Float32Array.from([...Array.from({ length: 99 }, () => 0.1), 10]), 0.9);
    expect(clipped.bytes[99]).toBe(127);
    expect(clipped.bytes[0]).toBe(127);
    // Back to floats within half a step.
    const values = Float32Array.from({ length: 50 }, (_, i) => Math.sin(i));
    const { bytes: q, scale: s } = quantize(values, 1);
    values.forEach((x, i) => expect(Math.abs(q[i]! / s - x)).toBeLessThanOrEqual(0.5 / s + 1e-7));
  });
});

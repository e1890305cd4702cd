/**
 * The pure half of `npm run catalog:semantic` (distill.ts): from the teacher's word vectors to the
 * table the index ships. Vectors are rows of one Float32Array, `dims` numbers each.
 */

/** Each row less the rows' mean: what every word shares (a plain mean makes all texts alike) goes. */
export function centre(rows: Float32Array, dims: number): Float32Array {
  const count = rows.length / dims;
  const mean = new Float64Array(dims);
  for (let i = 0; i < rows.length; i++) mean[i % dims]! += rows[i]!;
  for (let d = 0; d < dims; d++) mean[d]! /= count;
  return rows.map((x, i) => x - mean[i % dims]!);
}

/** Each row scaled to length 1 (a zero row stays zero). */
export function normalise(rows: Float32Array, dims: number): Float32Array {
  const out = new Float32Array(rows.length);
  for (let at = 0; at < rows.length; at += dims) {
    let sum = 0;
    for (let d = 0; d < dims; d++) sum += rows[at + d]! ** 2;
    const scale = sum > 0 ? 1 / Math.sqrt(sum) : 0;
    for (let d = 0; d < dims; d++) out[at + d] = rows[at + d]! * scale;
  }
  return out;
}

/**
 * The `k` directions of largest variance of centred rows (principal component analysis), by
 * orthogonal iteration on their covariance from a fixed start: the same rows give the same axes.
 * Returned as k rows of `dims`, largest variance first.
 */
export function principalAxes(rows: Float32Array, dims: number, k: number, iterations = 60): Float64Array {
  if (k > dims) throw new Error(`cannot keep ${k} of ${dims} dimensions`);
  const covariance = new Float64Array(dims * dims);
  for (let at = 0; at < rows.length; at += dims) {
    for (let a = 0; a < dims; a++) {
      const x = rows[at + a]!;
      if (x === 0) continue;
      for (let b = a; b < dims; b++) covariance[a * dims + b]! += x * rows[at + b]!;
    }
  }
  for (let a = 0; a < dims; a++) for (let b = 0; b < a; b++) covariance[a * dims + b] = covariance[b * dims + a]!;
  // Axes as rows of `basis` (k × dims); a fixed pseudo-random start so that runs agree.
  let basis = new Float64Array(k * dims);
  let seed = 1;
  for (let i = 0; i < basis.length; i++) {
    seed = (seed * 16807) % 2147483647;
    basis[i] = seed / 2147483647 - 0.5;
  }
  orthonormalise(basis, dims);
  for (let it = 0; it < iterations; it++) {
    const next = new Float64Array(k * dims);
    for (let j = 0; j < k; j++) {
      for (let a = 0; a < dims; a++) {
        let sum = 0;
        for (let b = 0; b < dims; b++) sum += covariance[a * dims + b]! * basis[j * dims + b]!;
        next[j * dims + a] = sum;
      }
    }
    orthonormalise(next, dims);
    basis = next;
  }
  return basis;
}

/** Gram–Schmidt over the rows of `m`, in place. */
function orthonormalise(m: Float64Array, dims: number): void {
  const k = m.length / dims;
  for (let j = 0; j < k; j++) {
    for (let p = 0; p < j; p++) {
      let dot = 0;
      for (let d = 0; d < dims; d++) dot += m[j * dims + d]! * m[p * dims + d]!;
      for (let d = 0; d < dims; d++) m[j * dims + d]! -= dot * m[p * dims + d]!;
    }
    let norm = 0;
    for (let d = 0; d < dims; d++) norm += m[j * dims + d]! ** 2;
    norm = Math.sqrt(norm);
    for (let d = 0; d < dims; d++) m[j * dims + d]! /= norm;
  }
}

/** Rows projected onto `axes` (k rows of `dims`): k numbers per row. */
export function project(rows: Float32Array, dims: number, axes: Float64Array): Float32Array {
  const k = axes.length / dims;
  const count = rows.length / dims;
  const out = new Float32Array(count * k);
  for (let i = 0; i < count; i++) {
    for (let j = 0; j < k; j++) {
      let sum = 0;
      for (let d = 0; d < dims; d++) sum += rows[i * dims + d]! * axes[j * dims + d]!;
      out[i * k + j] = sum;
    }
  }
  return out;
}

/**
 * Rows as int8 under one scale for the whole table, so that rows keep their lengths relative to each
 * other (a word near the mean says little and weighs little in a pool). The scale puts the
 * `clipAt` quantile of absolute values at 127; the few larger ones are clipped.
 */
export function quantize(rows: Float32Array, clipAt = 0.9999): { bytes: Int8Array; scale: number } {
  if (rows.length === 0) return { bytes: new Int8Array(0), scale: 1 };
  const magnitudes = Float32Array.from(rows, Math.abs).sort();
  const limit = magnitudes[Math.min(magnitudes.length - 1, Math.floor(clipAt * magnitudes.length))]!;
  const scale = limit > 0 ? 127 / limit : 1;
  return { bytes: Int8Array.from(rows, (x) => Math.max(-127, Math.min(127, Math.round(x * scale)))), scale };
}

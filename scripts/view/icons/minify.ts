/**
 * One icon from its SVG file: svgo minifies it (and moves the rules of its <style> onto the elements
 * they select, so its colours survive the sanitizer, which drops <style>), then our sanitizer
 * (sanitize.ts) parses svgo's output strictly and keeps only its allowlist. svgo is a tool here, not a
 * safeguard: what is stored is always what our sanitizer serialized.
 */
import { optimize, VERSION, type Config } from 'svgo';
import { sanitizeSvg, type Sanitized } from './sanitize.ts';
import { serializeXml } from './xml.ts';

export const SVGO_VERSION = VERSION;

const config = (floatPrecision: number): Config => ({
  multipass: true,
  floatPrecision,
  js2svg: { pretty: false },
  plugins: [
    {
      name: 'preset-default',
      params: {
        overrides: {
          // Every rule of a <style> moved onto its elements, not only those that select one element.
          inlineStyles: { onlyMatchedOnce: false },
        },
      },
    },
    'removeDimensions',
    'removeXlink',
    'removeTitle',
    'removeScripts',
    'removeRasterImages',
    'convertStyleToAttrs',
  ],
});

export interface Icon {
  /** The sanitized markup, ids not yet prefixed (what identical icons share). */
  markup: string;
  /** What the sanitizer dropped from svgo's output. */
  removed: string[];
  sanitized: Sanitized;
}

/** The icon of an SVG file's text; throws when svgo cannot read it or nothing safe is left. */
export function iconFromSvg(raw: string): Icon {
  const minified = optimize(raw, config(precisionFor(raw))).data;
  const sanitized = sanitizeSvg(minified);
  return { markup: serializeXml(sanitized.root), removed: sanitized.removed, sanitized };
}

/**
 * Digits kept after the decimal point. Icons are drawn about 40 px wide: two digits are a hundredth of
 * a unit, invisible for viewBoxes 20 units wide or more; smaller ones keep three.
 */
function precisionFor(raw: string): number {
  const width = Number(/viewBox\s*=\s*["']\s*[-\d.eE]+[\s,]+[-\d.eE]+[\s,]+([\d.eE]+)/.exec(raw)?.[1]);
  if (!(Number.isFinite(width) && width > 0)) return 2;
  return Math.min(3, Math.max(1, Math.ceil(Math.log10(880 / width))));
}

/** Whether the file draws with a raster image, which neither svgo nor the sanitizer keeps: the icon would be incomplete. */
export const drawsRaster = (raw: string) => /<image[\s/>]/i.test(raw);

/**
 * Small SVG charts for the load report: no chart library, no browser, files a README can embed.
 */
const W = 720;
const H = 300;
const PAD = { left: 64, right: 16, top: 36, bottom: 44 };
const COLORS = ['#2563eb', '#16a34a', '#ea580c', '#9333ea', '#dc2626', '#0891b2', '#ca8a04', '#4b5563'];
const esc = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

function frame(title: string, body: string, xLabel: string, yLabel: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="system-ui,sans-serif" font-size="12">
<rect width="${W}" height="${H}" fill="#fff"/>
<text x="${W / 2}" y="20" text-anchor="middle" font-size="14" font-weight="600">${esc(title)}</text>
<text x="${W / 2}" y="${H - 8}" text-anchor="middle" fill="#444">${esc(xLabel)}</text>
<text x="14" y="${H / 2}" text-anchor="middle" fill="#444" transform="rotate(-90 14 ${H / 2})">${esc(yLabel)}</text>
${body}
</svg>
`;
}

function axes(maxY: number, ticks = 5): string {
  const lines: string[] = [];
  for (let i = 0; i <= ticks; i++) {
    const y = PAD.top + ((H - PAD.top - PAD.bottom) * (ticks - i)) / ticks;
    const value = (maxY * i) / ticks;
    lines.push(`<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y}" y2="${y}" stroke="#e5e7eb"/>`);
    lines.push(`<text x="${PAD.left - 6}" y="${y + 4}" text-anchor="end" fill="#444">${value >= 100 ? Math.round(value) : +value.toFixed(1)}</text>`);
  }
  return lines.join('\n');
}

const niceMax = (v: number) => {
  if (v <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  return [1, 2, 2.5, 5, 10].map((m) => m * p).find((m) => m >= v)!;
};

/** Lines over x (seconds): one series per name. */
export function lineChart(title: string, xLabel: string, yLabel: string, series: Record<string, number[]>): string {
  const names = Object.keys(series);
  const n = Math.max(...names.map((k) => series[k]!.length), 2);
  const maxY = niceMax(Math.max(...names.flatMap((k) => series[k]!)));
  const x = (i: number) => PAD.left + ((W - PAD.left - PAD.right) * i) / (n - 1);
  const y = (v: number) => PAD.top + (H - PAD.top - PAD.bottom) * (1 - v / maxY);
  const paths = names.map((name, k) => {
    const points = series[name]!.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
    return `<polyline fill="none" stroke="${COLORS[k % COLORS.length]}" stroke-width="2" points="${points}"/>`;
  });
  const legend = names.map((name, k) => `<text x="${PAD.left + 8 + k * 130}" y="${PAD.top - 4}" fill="${COLORS[k % COLORS.length]}">■ ${esc(name)}</text>`);
  const xTicks = Array.from({ length: 6 }, (_, i) => Math.round(((n - 1) * i) / 5)).map(
    (i) => `<text x="${x(i)}" y="${H - PAD.bottom + 16}" text-anchor="middle" fill="#444">${i}</text>`,
  );
  return frame(title, [axes(maxY), ...paths, ...legend, ...xTicks].join('\n'), xLabel, yLabel);
}

/** Grouped bars: one group per category, one bar per series. */
export function barChart(title: string, xLabel: string, yLabel: string, categories: string[], series: Record<string, number[]>): string {
  const names = Object.keys(series);
  const maxY = niceMax(Math.max(...names.flatMap((k) => series[k]!)));
  const groupWidth = (W - PAD.left - PAD.right) / categories.length;
  const barWidth = Math.min(40, (groupWidth * 0.8) / names.length);
  const y = (v: number) => PAD.top + (H - PAD.top - PAD.bottom) * (1 - v / maxY);
  const bars = categories.flatMap((category, c) =>
    names.map((name, k) => {
      const value = series[name]![c] ?? 0;
      const bx = PAD.left + groupWidth * c + (groupWidth - barWidth * names.length) / 2 + barWidth * k;
      return `<rect x="${bx.toFixed(1)}" y="${y(value).toFixed(1)}" width="${(barWidth - 2).toFixed(1)}" height="${(H - PAD.bottom - y(value)).toFixed(1)}" fill="${COLORS[k % COLORS.length]}"><title>${esc(`${category} ${name}: ${value}`)}</title></rect>`;
    }),
  );
  const labels = categories.map(
    (category, c) => `<text x="${PAD.left + groupWidth * (c + 0.5)}" y="${H - PAD.bottom + 16}" text-anchor="middle" fill="#444">${esc(category)}</text>`,
  );
  const legend = names.map((name, k) => `<text x="${PAD.left + 8 + k * 110}" y="${PAD.top - 4}" fill="${COLORS[k % COLORS.length]}">■ ${esc(name)}</text>`);
  return frame(title, [axes(maxY), ...bars, ...labels, ...legend].join('\n'), xLabel, yLabel);
}

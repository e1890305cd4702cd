/**
 * Pan and zoom over the drawn workflow: the wheel (or a pinch) zooms about the pointer, dragging the
 * background pans, and fit frames the whole workflow. The transform is one attribute on the group
 * that holds the drawing, so moving never redraws a node.
 */

export interface Viewport {
  /**
   * Frames a box (the workflow's bounds) in the view, at no more than 100%. `canvas`: the canvas's size
   * if already measured, so that framing a new drawing forces no layout of it before its first frame.
   */
  fit(box: { x: number; y: number; width: number; height: number }, canvas?: { width: number; height: number }): void;
  zoomBy(factor: number): void;
  /** Pans so that a box on screen (a node) is within the canvas less `inset` pixels on its right (a panel over it). */
  reveal(box: { left: number; right: number; top: number; bottom: number }, inset: number): void;
  /** The current scale, 1 = 100%. */
  scale(): number;
}

const MIN = 0.01;
const MAX = 4;

export function viewport(svg: SVGSVGElement, world: SVGGElement, onChange: (scale: number) => void = () => {}): Viewport {
  let x = 0;
  let y = 0;
  let k = 1;
  const apply = () => {
    world.setAttribute('transform', `translate(${x} ${y}) scale(${k})`);
    onChange(k);
  };
  const zoomAt = (factor: number, px: number, py: number) => {
    const next = Math.min(MAX, Math.max(MIN, k * factor));
    x = px - ((px - x) * next) / k;
    y = py - ((py - y) * next) / k;
    k = next;
    apply();
  };

  svg.addEventListener(
    'wheel',
    (event) => {
      event.preventDefault();
      const rect = svg.getBoundingClientRect();
      if (event.ctrlKey || event.metaKey || !event.shiftKey) zoomAt(Math.exp(-event.deltaY * 0.002), event.clientX - rect.left, event.clientY - rect.top);
      else {
        x -= event.deltaX || event.deltaY;
        apply();
      }
    },
    { passive: false },
  );

  let drag: { px: number; py: number; x: number; y: number } | undefined;
  svg.addEventListener('pointerdown', (event) => {
    if ((event.target as Element).closest('.node')) return;
    drag = { px: event.clientX, py: event.clientY, x, y };
    svg.setPointerCapture(event.pointerId);
    svg.classList.add('panning');
  });
  svg.addEventListener('pointermove', (event) => {
    if (!drag) return;
    x = drag.x + event.clientX - drag.px;
    y = drag.y + event.clientY - drag.py;
    apply();
  });
  const end = () => {
    drag = undefined;
    svg.classList.remove('panning');
  };
  svg.addEventListener('pointerup', end);
  svg.addEventListener('pointercancel', end);

  return {
    fit(box, canvas) {
      const { width, height } = canvas ?? svg.getBoundingClientRect();
      if (box.width <= 0 || box.height <= 0 || width <= 0 || height <= 0) {
        x = width / 2 - box.x;
        y = height / 2 - box.y;
        k = 1;
        return apply();
      }
      const pad = 40;
      k = Math.min(1, Math.max(MIN, Math.min((width - 2 * pad) / box.width, (height - 2 * pad) / box.height)));
      x = (width - box.width * k) / 2 - box.x * k;
      y = (height - box.height * k) / 2 - box.y * k;
      apply();
    },
    zoomBy(factor) {
      const { width, height } = svg.getBoundingClientRect();
      zoomAt(factor, width / 2, height / 2);
    },
    reveal(box, inset) {
      const rect = svg.getBoundingClientRect();
      const pad = 24;
      const right = rect.right - inset - pad;
      const left = rect.left + pad;
      if (box.right > right) x -= Math.min(box.right - right, box.left - left);
      else if (box.left < left) x += left - box.left;
      if (box.bottom > rect.bottom - pad) y -= box.bottom - (rect.bottom - pad);
      else if (box.top < rect.top + pad) y += rect.top + pad - box.top;
      apply();
    },
    scale: () => k,
  };
}

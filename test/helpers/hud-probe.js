/*
 * Loaded into the HUD overlay page by the layout and contrast tests (page.addInitScript({ path })),
 * as plain browser JavaScript: the measures they take in Chromium, over the page's data-* hooks only
 * (docs/themes.md), so panels added later are measured without an edit here.
 *
 *   hudProbe.until(words)  resolves once the root's data-open holds and lacks the words it is told
 *   hudProbe.layout()      the visible panels that intersect, the text that overflows its box, and
 *                          the text smaller than the smallest type on air
 *   hudProbe.texts()       every visible text element: its painted text boxes, colour, size, weight,
 *                          dimmed (a dead player's), covered (under another player's mark)
 *   hudProbe.contrast()    the contrast of those texts over a screenshot of what is under them
 *   hudProbe.sideColours() the colours that say each team's side, and the preset's side colours (as
 *                          lines and text, and as text badges)
 */
(() => {
  const SEEN = {
    opacityProperty: true,
    visibilityProperty: true,
    checkOpacity: true,
    checkVisibilityCSS: true,
  };
  const TOLERANCE = 1; // stage px: sub-pixel rounding is not an overlap
  /**
   * The smallest type on air (docs/themes.md, "Type sizes"): 10 px at 1280x720, so 15 px on the
   * 1920x1080 stage; the same on the stage at every size, since the stage scales as a whole.
   */
  const MIN_TYPE_AT_720 = 10;
  const MIN_TYPE_STAGE = (MIN_TYPE_AT_720 * 1080) / 720;

  const root = () => document.querySelector('[data-page="hud"]');
  /** Computed styles, read once per element in one measure (nothing changes the page meanwhile). */
  let styles = new Map();
  const styleOf = (element) => {
    if (!styles.has(element)) styles.set(element, getComputedStyle(element));
    return styles.get(element);
  };
  const scale = () =>
    Number(document.querySelector('[data-stage-scale]')?.getAttribute('data-stage-scale') ?? 1);

  /** A panel on air: its state says visible and the page really draws it. */
  const onAir = (panel) => panel.getAttribute('data-visible') === 'true' && panel.checkVisibility(SEEN);

  /**
   * The boxes a panel paints, in stage px: its own box grown to hold whatever of its content reaches
   * outside it (a grid track pushed wider by a long name, a box moved in by 10 px); or, when it has
   * no area (a wrapper such as the player boxes' section), those of its children.
   */
  function boxesOf(element) {
    const rect = element.getBoundingClientRect();
    if (rect.width === 0 || rect.height === 0)
      return [...element.children].filter((child) => child.checkVisibility(SEEN)).flatMap(boxesOf);
    const box = toStage(rect);
    for (const inner of element.querySelectorAll('*')) {
      const r = inner.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || !inner.checkVisibility(SEEN)) continue;
      const b = toStage(r);
      box.left = Math.min(box.left, b.left);
      box.top = Math.min(box.top, b.top);
      box.right = Math.max(box.right, b.right);
      box.bottom = Math.max(box.bottom, b.bottom);
    }
    return [box];
  }

  /** The stage's place and scale, read once per measure. */
  let stage = null;
  function toStage(rect) {
    if (!stage) {
      const origin = document.querySelector('[data-stage-scale]').getBoundingClientRect();
      stage = { left: origin.left, top: origin.top, scale: scale() };
    }
    return {
      left: (rect.left - stage.left) / stage.scale,
      top: (rect.top - stage.top) / stage.scale,
      right: (rect.right - stage.left) / stage.scale,
      bottom: (rect.bottom - stage.top) / stage.scale,
    };
  }

  const overlap = (a, b) => ({
    width: Math.min(a.right, b.right) - Math.max(a.left, b.left),
    height: Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top),
  });
  const round = (box) =>
    `x ${Math.round(box.left)}-${Math.round(box.right)} y ${Math.round(box.top)}-${Math.round(box.bottom)}`;

  const nameOf = (panel) =>
    panel.getAttribute('data-panel') +
    (panel.getAttribute('data-position') ? `@${panel.getAttribute('data-position')}` : '');

  /** Where an element is, for a message: its panel and the hooks or class on the way. */
  function pathOf(element) {
    const parts = [];
    for (let node = element; node && !node.hasAttribute('data-page'); node = node.parentElement) {
      const hook = [...node.attributes].find((a) => a.name.startsWith('data-') && a.name !== 'data-visible');
      parts.unshift(
        hook
          ? `[${hook.name}${hook.value ? `="${hook.value}"` : ''}]`
          : `.${node.classList[0] ?? node.tagName}`,
      );
      if (node.hasAttribute('data-panel')) break;
    }
    return parts.join(' ');
  }

  /** The element's own text (its direct text nodes), trimmed. */
  const ownText = (element) =>
    [...element.childNodes]
      .filter((n) => n.nodeType === Node.TEXT_NODE)
      .map((n) => n.textContent)
      .join('')
      .trim();

  /** Elements that hold text of their own, drawn on air, inside a panel on air. */
  function textElements() {
    const out = [];
    for (const panel of document.querySelectorAll('[data-panel]')) {
      if (!onAir(panel)) continue;
      for (const element of [panel, ...panel.querySelectorAll('*')]) {
        if (element.closest('[data-panel]') !== panel) continue; // a nested panel answers for its own
        if (ownText(element) && element.checkVisibility(SEEN)) out.push({ element, panel });
      }
    }
    return out;
  }

  /**
   * The boxes of an element's own text, one per line, in stage px: along the line, as laid out;
   * across it, the em box around the line's middle (a range's height is the font's ascent and
   * descent, taller than a tight line-height, and says nothing of the ink).
   */
  function textBoxes(element) {
    const style = styleOf(element);
    const half = Number.parseFloat(style.fontSize) / 2;
    const vertical = style.writingMode.startsWith('vertical');
    const boxes = [];
    for (const node of element.childNodes) {
      if (node.nodeType !== Node.TEXT_NODE || !node.textContent.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const rect of range.getClientRects()) {
        if (rect.width === 0 || rect.height === 0) continue;
        const box = toStage(rect);
        if (vertical) {
          const middle = (box.left + box.right) / 2;
          boxes.push({ ...box, left: middle - half, right: middle + half });
        } else {
          const middle = (box.top + box.bottom) / 2;
          boxes.push({ ...box, top: middle - half, bottom: middle + half });
        }
      }
    }
    return boxes;
  }

  /** text-overflow: ellipsis really applies to a box: a block container that clips one line. */
  function ellipsisApplies(element) {
    const style = styleOf(element);
    return (
      style.textOverflow === 'ellipsis' &&
      style.overflowX !== 'visible' &&
      /nowrap|pre/.test(style.whiteSpace + style.textWrapMode) &&
      /^(block|inline-block|flow-root|list-item|table-cell)$/.test(style.display)
    );
  }

  /**
   * Text that runs out of its box: the text element's block box is wider than its client box
   * (scrollWidth, layout px; unless an ellipsis ends it), or a line of it reaches outside a box
   * around it, up to its panel (a box that ends it with an ellipsis clips it there; a box without
   * area is a wrapper and holds nothing). Up and down the em boxes tell, not scrollHeight: Chromium
   * counts a font's whole ascent and descent as overflow under a tight line-height, where nothing
   * is cut.
   */
  function overflowOf({ element, panel }) {
    const problems = [];
    const text = ownText(element).slice(0, 40);
    let block = element;
    while (block !== panel && styleOf(block).display === 'inline') block = block.parentElement;
    if (block.scrollWidth > block.clientWidth + TOLERANCE && block.clientWidth > 0 && !ellipsisApplies(block))
      problems.push(
        `"${text}" is ${block.scrollWidth - block.clientWidth} px wider than its box, with no ellipsis`,
      );
    for (let box of textBoxes(element)) {
      for (let around = block; around; around = around === panel ? null : around.parentElement) {
        const rect = around.getBoundingClientRect();
        if (rect.width === 0 || rect.height === 0) continue;
        const edge = toStage(rect);
        if (ellipsisApplies(around))
          box = { ...box, left: Math.max(box.left, edge.left), right: Math.min(box.right, edge.right) };
        const out = Math.max(
          edge.left - box.left,
          box.right - edge.right,
          edge.top - box.top,
          box.bottom - edge.bottom,
        );
        if (out > TOLERANCE) {
          problems.push(`"${text}" runs ${Math.round(out)} px out of ${pathOf(around)} (${round(edge)})`);
          break;
        }
      }
    }
    return problems.map((problem) => `${nameOf(panel)} ${pathOf(element)}: ${problem}`);
  }

  /** Text smaller than the smallest type on air, in px on the screen at this size. */
  function tooSmall({ element, panel }) {
    const size = Number.parseFloat(styleOf(element).fontSize);
    if (size >= MIN_TYPE_STAGE - 0.01) return [];
    const screen = Math.round(size * scale() * 10) / 10;
    return [
      `${nameOf(panel)} ${pathOf(element)}: "${ownText(element).slice(0, 40)}" is ${screen} px here (${size} px on the stage), under the smallest type on air (${MIN_TYPE_AT_720} px at 1280x720, ${MIN_TYPE_STAGE} px on the stage)`,
    ];
  }

  /**
   * Waits until the root's data-open has every word of `present` and none of `absent`: checked on
   * each change of the attribute (a mutation observer, no polling).
   */
  function until(present, absent, timeoutMs = 5_000) {
    const element = root();
    const holds = () => {
      const words = new Set((element.getAttribute('data-open') ?? '').split(' '));
      return present.every((w) => words.has(w)) && absent.every((w) => !words.has(w));
    };
    if (holds()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const observer = new MutationObserver(() => {
        if (!holds()) return;
        observer.disconnect();
        clearTimeout(timer);
        resolve();
      });
      const timer = setTimeout(() => {
        observer.disconnect();
        reject(
          new Error(
            `data-open "${element.getAttribute('data-open')}" never had ${present} without ${absent}`,
          ),
        );
      }, timeoutMs);
      observer.observe(element, { attributes: true, attributeFilter: ['data-open'] });
    });
  }

  function layout() {
    const started = performance.now();
    styles = new Map();
    stage = null;
    const panels = [...document.querySelectorAll('[data-panel]')].filter(onAir);
    const problems = [];
    const boxes = panels.map((panel) => ({ panel, name: nameOf(panel), boxes: boxesOf(panel) }));
    for (const [i, a] of boxes.entries()) {
      for (const b of boxes.slice(i + 1)) {
        if (a.panel.contains(b.panel) || b.panel.contains(a.panel)) continue;
        for (const boxA of a.boxes)
          for (const boxB of b.boxes) {
            const { width, height } = overlap(boxA, boxB);
            if (width > TOLERANCE && height > TOLERANCE)
              problems.push(
                `${a.name} (${round(boxA)}) and ${b.name} (${round(boxB)}) overlap ${Math.round(width)}x${Math.round(height)}`,
              );
          }
      }
    }
    for (const text of textElements()) problems.push(...overflowOf(text), ...tooSmall(text));
    return { onAir: boxes.map((b) => b.name), problems, ms: performance.now() - started };
  }

  /**
   * The line boxes of an element's text as far as they are painted: cut to every box up to its panel
   * that clips its overflow (the part of a long name behind its ellipsis is not drawn, and what is
   * under it is not its background).
   */
  function paintedBoxes(element, panel) {
    let boxes = textBoxes(element);
    for (let around = element; around; around = around === panel ? null : around.parentElement) {
      const style = styleOf(around);
      const clipsX = style.overflowX !== 'visible';
      const clipsY = style.overflowY !== 'visible';
      if (!clipsX && !clipsY) continue;
      const edge = toStage(around.getBoundingClientRect());
      boxes = boxes
        .map((box) => ({
          left: clipsX ? Math.max(box.left, edge.left) : box.left,
          right: clipsX ? Math.min(box.right, edge.right) : box.right,
          top: clipsY ? Math.max(box.top, edge.top) : box.top,
          bottom: clipsY ? Math.min(box.bottom, edge.bottom) : box.bottom,
        }))
        .filter((box) => box.right > box.left && box.bottom > box.top);
    }
    return boxes;
  }

  /**
   * Whether another player's mark lies over the text: where players stand on each other (the radar's
   * discs in a spawn), the number underneath is covered, not drawn on a poor background. Asked of the
   * topmost element at points across the text's first painted line (a disc may cover a part of it).
   */
  function coveredByAnotherPlayer(element, boxes) {
    const own = element.closest('[data-slot]');
    const [box] = boxes;
    if (!own || !box) return false;
    for (const fx of [0.2, 0.5, 0.8])
      for (const fy of [0.2, 0.5, 0.8]) {
        const x = stage.left + (box.left + (box.right - box.left) * fx) * stage.scale;
        const y = stage.top + (box.top + (box.bottom - box.top) * fy) * stage.scale;
        const top = document.elementFromPoint(x, y)?.closest('[data-slot]');
        if (top && top !== own && !top.contains(own) && !own.contains(top)) return true;
      }
    return false;
  }

  /** Every visible text element with what a contrast check needs. */
  function texts() {
    stage = null;
    styles = new Map();
    return textElements().map(({ element, panel }) => {
      const style = getComputedStyle(element);
      let opacity = 1;
      for (let node = element; node; node = node.parentElement)
        opacity *= Number(getComputedStyle(node).opacity);
      const boxes = paintedBoxes(element, panel);
      return {
        where: `${nameOf(panel)} ${pathOf(element)}`,
        text: ownText(element).slice(0, 40),
        color: style.color,
        opacity,
        fontSize: Number.parseFloat(style.fontSize),
        fontWeight: Number(style.fontWeight),
        dead: element.closest('[data-alive="false"]') !== null,
        covered: coveredByAnotherPlayer(element, boxes),
        boxes,
      };
    });
  }

  /** [r, g, b, a] of a computed colour: rgb(), rgba() or color(srgb …). */
  function rgba(text) {
    const srgb = /color\(srgb ([\d.e-]+) ([\d.e-]+) ([\d.e-]+)(?: \/ ([\d.e-]+))?\)/.exec(text);
    if (srgb)
      return [srgb[1] * 255, srgb[2] * 255, srgb[3] * 255, srgb[4] === undefined ? 1 : Number(srgb[4])];
    const [r, g, b, a = 1] = (text.match(/[\d.]+/g) ?? []).map(Number);
    return [r, g, b, a];
  }

  /** WCAG 2 relative luminance of an sRGB colour (0-255 channels). */
  function luminance([r, g, b]) {
    const lin = (c) => {
      const v = c / 255;
      return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  }

  const ratio = (a, b) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };

  /**
   * The contrast of each text against what is painted under it: `shot` is a screenshot of the page
   * with every text made transparent, over the backdrop the test chose. Under each line's em box,
   * every pixel of that picture is a background the text sits on; the text's colour (its alpha and
   * the opacity of its ancestors) is laid over each one. The figure is the 5th percentile over those
   * pixels: the worst few (the anti-aliased edge of a shape under the text) do not decide alone.
   * At 1920x1080 (scale 1): a stage px is a picture px.
   */
  async function contrast(shot, list) {
    const image = new Image();
    image.src = shot;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.width;
    canvas.height = image.height;
    const context = canvas.getContext('2d', { willReadFrequently: true });
    context.drawImage(image, 0, 0);
    const { data, width, height } = context.getImageData(0, 0, canvas.width, canvas.height);
    return list.map((text) => {
      const [r, g, b, a] = rgba(text.color);
      const alpha = a * text.opacity;
      const ratios = [];
      for (const box of text.boxes) {
        for (let y = Math.max(0, Math.ceil(box.top)); y < Math.min(height, Math.floor(box.bottom)); y++)
          for (let x = Math.max(0, Math.ceil(box.left)); x < Math.min(width, Math.floor(box.right)); x++) {
            const i = (y * width + x) * 4;
            const under = [data[i], data[i + 1], data[i + 2]];
            const over = [0, 1, 2].map((c) => alpha * [r, g, b][c] + (1 - alpha) * under[c]);
            ratios.push(ratio(over, under));
          }
      }
      ratios.sort((x, y) => x - y);
      return { ...text, contrast: ratios[Math.floor(ratios.length * 0.05)] ?? 0 };
    });
  }

  /**
   * The colours that say a team's side, as drawn: each team's top bar underline, side chip, live
   * score and player boxes, and its scoreboard column; the side colours of the preset; and the
   * colours of what says a team's identity or nothing (initials tiles, series scores), which must
   * be neither side's.
   */
  function sideColours() {
    const paint = (value) => {
      const probe = document.createElement('i');
      probe.style.color = value;
      document.body.append(probe);
      const color = getComputedStyle(probe).color;
      probe.remove();
      return color;
    };
    const hud = root();
    const style = getComputedStyle(hud);
    const of = (team) => {
      const found = {};
      const block = document.querySelector(`[data-topbar] [data-team="${team}"]`)?.parentElement;
      if (block) found.underline = getComputedStyle(block, '::after').backgroundColor;
      const chip = block?.querySelector('[data-side-marker]');
      if (chip) found.chip = getComputedStyle(chip).backgroundColor;
      const score = document.querySelector(`[data-topbar] [data-score-source="live"] [data-score="${team}"]`);
      if (score) found.score = getComputedStyle(score).color;
      for (const slot of document.querySelectorAll(
        `[data-team-boxes="${team}"] [data-slot][data-alive="true"]`,
      ))
        found[`box ${slot.getAttribute('data-slot')}`] = getComputedStyle(
          slot.firstElementChild,
        ).backgroundColor;
      const column = document
        .querySelector(`[data-panel="scoreboard"] [data-team="${team}"]`)
        ?.closest('section');
      if (column) found.scoreboard = getComputedStyle(column).borderTopColor;
      return found;
    };
    const neutral = [...document.querySelectorAll('[data-logo], [data-series-score]')].flatMap((el) => {
      const s = getComputedStyle(el);
      return [s.color, s.backgroundColor, s.backgroundImage];
    });
    // A text badge (the side chip, a box's slot chip) wears its side colour at --badge-alpha.
    const badge = (side) =>
      paint(
        `color-mix(in srgb, ${style.getPropertyValue(side)} ${style.getPropertyValue('--badge-alpha')}, transparent)`,
      );
    return {
      A: of('A'),
      B: of('B'),
      ct: paint(style.getPropertyValue('--ct')),
      t: paint(style.getPropertyValue('--t')),
      badge: { ct: badge('--ct'), t: badge('--t') },
      neutral,
    };
  }

  globalThis.hudProbe = { until, layout, texts, contrast, sideColours };
})();

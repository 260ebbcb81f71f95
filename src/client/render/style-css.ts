import type { CSSProperties } from 'react';
import type { Style } from '../../shared/schemas/style';

type Box = NonNullable<Style['margin']>;
type Border = NonNullable<Style['border_top']>;

const box = (b: Box) => `${b.top}px ${b.right}px ${b.bottom}px ${b.left}px`;
/** 'default' means "inherit what the renderer draws", so it sets nothing. */
const border = (b: Border): string | undefined =>
  b.style === 'default' ? undefined : `${b.width}px ${b.style} ${b.color || 'currentColor'}`;

/**
 * Style properties → CSS, in one place: an absent property, an empty colour or a 'default' choice sets
 * nothing, so the element keeps what the renderer (or an enclosing style) gives it.
 */
export function styleToCss(style: Style | null | undefined): CSSProperties {
  if (!style) return {};
  const css: CSSProperties = {};
  if (style.border_collapse) css.borderCollapse = style.border_collapse;
  if (style.border_spacing !== undefined) css.borderSpacing = `${style.border_spacing}px`;
  if (style.margin) css.margin = box(style.margin);
  if (style.padding) css.padding = box(style.padding);
  const sides = { border_top: 'borderTop', border_right: 'borderRight', border_bottom: 'borderBottom', border_left: 'borderLeft' } as const;
  for (const [key, prop] of Object.entries(sides) as [keyof typeof sides, (typeof sides)[keyof typeof sides]][]) {
    const b = style[key];
    const value = b ? border(b) : undefined;
    if (value) css[prop] = value;
  }
  if (style.vertical_align) css.verticalAlign = style.vertical_align;
  if (style.color) css.color = style.color;
  if (style.background_color) css.backgroundColor = style.background_color;
  if (style.text_align) css.textAlign = style.text_align;
  if (style.text_transform && style.text_transform !== 'default') css.textTransform = style.text_transform;
  if (typeof style.font_size === 'number') css.fontSize = `${style.font_size}px`;
  if (style.font_weight && style.font_weight !== 'default') css.fontWeight = Number(style.font_weight);
  if (style.font_style && style.font_style !== 'default') css.fontStyle = style.font_style;
  return css;
}

/** Later styles win, property by property (a table's general style, then its body, then a column's). */
export const mergeCss = (...parts: (CSSProperties | undefined)[]): CSSProperties => Object.assign({}, ...parts.filter(Boolean));

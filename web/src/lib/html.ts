/**
 * The console's one way to build HTML from strings. React escapes what it renders; ECharts does
 * not escape what a tooltip formatter returns (nor `{a}`/`{b}` templates in a tooltip), so a
 * device or metric named `<img src=x onerror=…>` would run in every viewer's console. Tooltips get
 * their markup only through `tooltipHtml`, whose formatter returns `Html` built by `html`…``:
 * each interpolation is escaped unless it is itself `Html`. The lint plugin
 * `web/lint/no-html-strings.grit` refuses any other tooltip formatter and every raw HTML sink.
 */

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text as HTML that shows it literally, in content and in quoted attributes: `a<b` → `a&lt;b`. */
export function escapeHtml(text: unknown): string {
  return String(text ?? '').replace(/[&<>"']/g, (c) => ENTITIES[c] as string);
}

// Not exported: only this module can vouch that a string is markup.
const TRUSTED: unique symbol = Symbol('kilowatch.html');

/** Markup whose every piece of text was escaped (only `html`…`` and the helpers here make one). */
export class Html {
  readonly #markup: string;
  constructor(token: typeof TRUSTED, markup: string) {
    if (token !== TRUSTED) throw new TypeError('Html is made by html`…` (web/src/lib/html.ts)');
    this.#markup = markup;
  }
  toString(): string {
    return this.#markup;
  }
}

const piece = (value: unknown): string => {
  if (value instanceof Html) return value.toString();
  if (Array.isArray(value)) return value.map(piece).join('');
  return escapeHtml(value);
};

/**
 * Markup from a template: the literal parts are the source's own, every `${value}` is escaped
 * (an `Html` or an array of them is kept as markup). `html\`<b>${name}</b>\`` with name `<i>`
 * gives `<b>&lt;i&gt;</b>`.
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let markup = strings[0] ?? '';
  values.forEach((value, i) => {
    markup += piece(value) + (strings[i + 1] ?? '');
  });
  return new Html(TRUSTED, markup);
}

/** Pieces of markup one after the other with `separator` between (`<br/>` for tooltip lines). */
export function joinHtml(parts: readonly Html[], separator: Html = html`<br/>`): Html {
  return new Html(TRUSTED, parts.map(String).join(separator.toString()));
}

// A colour, not a declaration: `red;background:url(…)` would reach past the dot's own style.
const CSS_COLOR = /^(#[0-9a-f]{3,8}|(rgb|hsl)a?\([\d\s.,%]+\)|[a-z]+)$/i;

/** The coloured dot ECharts puts before a series in a tooltip, for a CSS colour (others: none). */
export function colorDot(color: unknown): Html {
  if (typeof color !== 'string' || !CSS_COLOR.test(color)) return html``;
  return html`<span style="display:inline-block;margin-right:4px;border-radius:10px;width:10px;height:10px;background-color:${color};"></span>`;
}

/**
 * An ECharts tooltip formatter from one that returns `Html`: the only formatter a tooltip takes
 * (the lint plugin refuses strings, templates and bare functions there).
 */
export function tooltipHtml<P>(format: (params: P) => Html): (params: P) => string {
  return (params) => format(params).toString();
}

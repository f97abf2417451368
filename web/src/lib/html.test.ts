import { describe, expect, it } from 'vitest';
import { colorDot, escapeHtml, Html, html, joinHtml, tooltipHtml } from './html.ts';

const HOSTILE = `<img src=x onerror="alert('x')">&`;

describe('escapeHtml', () => {
  it('escapes the five characters that end text or a quoted attribute', () => {
    expect(escapeHtml(HOSTILE)).toBe('&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt;&amp;');
    expect(escapeHtml(null)).toBe('');
    expect(escapeHtml(12.5)).toBe('12.5');
  });
});

describe('html', () => {
  it('escapes every interpolation and keeps the literal markup', () => {
    expect(String(html`<b title="${HOSTILE}">${HOSTILE}</b>`)).toBe(
      `<b title="${escapeHtml(HOSTILE)}">${escapeHtml(HOSTILE)}</b>`,
    );
  });

  it('keeps nested markup once, and escapes plain strings inside arrays', () => {
    const inner = html`<i>${HOSTILE}</i>`;
    expect(String(html`<p>${inner}${[inner, '<u>']}</p>`)).toBe(
      `<p>${String(inner)}${String(inner)}&lt;u&gt;</p>`,
    );
  });

  it('cannot be forged from a string', () => {
    // @ts-expect-error: the token is the module's own.
    expect(() => new Html(Symbol('kilowatch.html'), '<img>')).toThrow(TypeError);
  });
});

describe('joinHtml', () => {
  it('joins with <br/> by default', () => {
    expect(String(joinHtml([html`a`, html`${'<b>'}`]))).toBe('a<br/>&lt;b&gt;');
  });
});

describe('colorDot', () => {
  it('draws a CSS colour and nothing for anything else', () => {
    expect(String(colorDot('#1677ff'))).toContain('background-color:#1677ff;');
    expect(String(colorDot('rgba(1, 2, 3, 0.5)'))).toContain('background-color:rgba(1, 2, 3, 0.5);');
    expect(String(colorDot('red;background-image:url(//evil)'))).toBe('');
    expect(String(colorDot('" onmouseover="alert(1)'))).toBe('');
    expect(String(colorDot({ type: 'linear' }))).toBe('');
  });
});

describe('tooltipHtml', () => {
  it('hands ECharts the markup as a string', () => {
    const format = tooltipHtml((p: { name: string }) => html`<b>${p.name}</b>`);
    expect(format({ name: HOSTILE })).toBe(`<b>${escapeHtml(HOSTILE)}</b>`);
  });
});

import { jsx } from 'hono/jsx';
import { raw } from 'hono/html';
import { AsyncLocalStorage } from 'node:async_hooks';
import { describe, expect, it, vi } from 'vitest';
import { htmlDocument } from './html-document.js';
import { renderBadFormPage } from './checkout.bad-form.view.js';

const Item = (props: { label: string; n: number }) =>
  jsx('li', { 'data-n': props.n, class: 'item' }, props.label);
const page = () =>
  jsx(
    'html',
    { lang: 'en' },
    jsx('body', {}, [
      jsx('h1', { id: 't' }, 'A & <b>'),
      jsx('ul', {}, [jsx(Item, { label: 'one "1"', n: 1 }), jsx(Item, { label: 'two', n: 2 })]),
      jsx('input', { type: 'checkbox', checked: true, disabled: false }),
      raw('<script nonce="x">1</script>'),
    ]),
  );

describe('htmlDocument', () => {
  // First in this file: Hono looks AsyncLocalStorage up once, on the first render of the module graph.
  it('renders hosted pages without running an AsyncLocalStorage (no promise hooks for the process)', () => {
    const run = vi.spyOn(AsyncLocalStorage.prototype, 'run');
    try {
      expect(renderBadFormPage('n', '/payment/invoice/x')).toContain('bad-form');
      expect(htmlDocument(page())).toContain('<h1 id="t">');
      expect(run).not.toHaveBeenCalled();
      expect(typeof process.getBuiltinModule).toBe('function'); // put back after the look-up
    } finally {
      run.mockRestore();
    }
  });

  it('writes exactly what Hono renders: escaping, attributes, components, raw parts', () => {
    const html = htmlDocument(page());
    expect(html).toBe('<!doctype html>' + String(page()));
    expect(html).toContain('<h1 id="t">A &amp; &lt;b&gt;</h1>');
    expect(html).toContain('<li data-n="1" class="item">one &quot;1&quot;</li>');
  });

  it('renders a real hosted page the same way', () => {
    const html = renderBadFormPage('nonce-1', '/payment/invoice/abc');
    expect(html.startsWith('<!doctype html><html')).toBe(true);
    expect(html).toContain('data-testid="bad-form"');
    expect(html).toContain('/payment/invoice/abc');
  });

  it('leaves anything that is not an element to Hono', () => {
    expect(htmlDocument(raw('<p>x</p>'))).toBe('<!doctype html><p>x</p>');
  });
});

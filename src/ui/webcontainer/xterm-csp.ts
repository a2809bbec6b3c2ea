/**
 * xterm under the page's Content-Security-Policy, which allows no inline styles (style-src
 * 'self'). xterm writes two kinds: <style> elements (its theme, cell sizes and scrollbar), and
 * style="" attributes on cells with 24-bit colours. The policy refuses both, and each refusal
 * is a console error. Constructed stylesheets and the CSSOM (`element.style`) are not inline
 * styles, so the policy allows them — CodeMirror's views rely on the first for the same reason.
 *
 * xterm creates its elements through a document its `documentOverride` option replaces.
 * `styleSafeDocument` is the page's document with two differences (and `openStyleSafe`
 * covers the one element xterm makes through the page's own document):
 * - a <style> it creates is an inert element whose text becomes a constructed stylesheet,
 *   adopted by whichever root (document or shadow root) the element is connected to, and
 *   dropped when xterm removes the element;
 * - a <span>'s style attribute is set through the CSSOM instead.
 */

/** The tag of the stand-in for xterm's <style> elements. */
const STYLE_TAG = 'slm-adopted-style';

type StyleRoot = Document | ShadowRoot;

/** Defines the stand-in in `win`'s registry, once. */
function defineAdoptedStyle(win: Window & typeof globalThis): void {
  if (win.customElements.get(STYLE_TAG)) return;

  class AdoptedStyle extends win.HTMLElement {
    readonly #sheet = new win.CSSStyleSheet();
    #css = '';
    #root: StyleRoot | null = null;

    connectedCallback(): void {
      this.hidden = true;
      const root = this.getRootNode();
      if (!(root instanceof win.Document || root instanceof win.ShadowRoot)) return;
      this.#root = root;
      root.adoptedStyleSheets = [...root.adoptedStyleSheets, this.#sheet];
    }

    disconnectedCallback(): void {
      const root = this.#root;
      this.#root = null;
      if (root) root.adoptedStyleSheets = root.adoptedStyleSheets.filter((s) => s !== this.#sheet);
    }

    /** The CSS xterm wrote; never rendered as text. */
    cssText(): string {
      return this.#css;
    }

    setCss(css: string): void {
      this.#css = css;
      this.#sheet.replaceSync(css);
    }
  }
  // xterm sets and reads `textContent`: on this element it is the stylesheet's text. Defined
  // on the prototype, since an accessor cannot override Node's property in a class body.
  Object.defineProperty(AdoptedStyle.prototype, 'textContent', {
    get(this: AdoptedStyle) {
      return this.cssText();
    },
    set(this: AdoptedStyle, css: string | null) {
      this.setCss(css ?? '');
    },
  });
  win.customElements.define(STYLE_TAG, AdoptedStyle);
}

/** `setAttribute` for xterm's cells: a style attribute goes through the CSSOM. */
function setAttributeViaCssom(this: HTMLElement, name: string, value: string): void {
  if (name.toLowerCase() === 'style') this.style.cssText = value;
  else HTMLElement.prototype.setAttribute.call(this, name, value);
}

/** `doc.createElement`, except for <style> and <span> (see the file comment). */
function styleSafeCreateElement(doc: Document): (tag: string, options?: ElementCreationOptions) => HTMLElement {
  const win = doc.defaultView;
  if (!win) throw new Error('xterm-csp needs a document with a window (the page’s own), not a detached one');
  defineAdoptedStyle(win);
  // The prototype's method: while `openStyleSafe` runs, `doc.createElement` is this function.
  const create = (tag: string, options?: ElementCreationOptions): HTMLElement =>
    win.Document.prototype.createElement.call(doc, tag, options);
  return (tag, options) => {
    const name = tag.toLowerCase();
    if (name === 'style') return create(STYLE_TAG);
    const el = create(tag, options);
    if (name === 'span') el.setAttribute = setAttributeViaCssom;
    return el;
  };
}

/** The page's document as xterm's `documentOverride` (see the file comment). */
export function styleSafeDocument(doc: Document = document): Document {
  const createElement = styleSafeCreateElement(doc);
  // A Proxy keeps `instanceof Document` true, which xterm checks. Native methods refuse any
  // `this` but the real document, so every other method is bound to it.
  return new Proxy(doc, {
    get(target, key) {
      if (key === 'createElement') return createElement;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * Opens `term` (made with `documentOverride: styleSafeDocument(...)`) in `host`. xterm 6 makes
 * one <style>, its scrollbar's, during `open` through the page's own document whatever the
 * override says (`this._document ?? typeof window<"u" ? window.document : null` always picks
 * window.document), so for the length of that synchronous call the page's document creates
 * elements the safe way too; its own `createElement` is back before anything else can run.
 */
export function openStyleSafe(term: { open(parent: HTMLElement): void }, host: HTMLElement): void {
  const doc = host.ownerDocument;
  const createElement = styleSafeCreateElement(doc);
  (doc as { createElement: unknown }).createElement = createElement;
  try {
    term.open(host);
  } finally {
    // The method lives on Document.prototype: removing the own property restores it.
    delete (doc as { createElement?: unknown }).createElement;
  }
}

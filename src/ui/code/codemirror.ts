/**
 * CodeMirror for the inspector, loaded as its own chunk (see load.ts) so the main bundle stays
 * small: a read-only file view and a before/after diff (@codemirror/merge), side by side or
 * unified. Both are read-only: what a run recorded is never edited. Colours come from the
 * page's CSS variables, so the views follow the light and dark themes without reconfiguring.
 *
 * Each view lives in a shadow root. CodeMirror injects its styles with a <style> element when
 * mounted in the document, which the page's CSP (style-src 'self') blocks; in a shadow root it
 * uses constructed stylesheets instead, which the CSP allows. CSS variables inherit into it.
 */
import { javascript } from '@codemirror/lang-javascript';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { MergeView, unifiedMergeView } from '@codemirror/merge';
import { EditorState, type Extension } from '@codemirror/state';
import { EditorView, highlightSpecialChars, lineNumbers } from '@codemirror/view';
import { tags } from '@lezer/highlight';

/** What a created view offers its owner: the component's $effect cleanup calls destroy. */
export interface CodeHandle {
  destroy(): void;
}

export type DiffLayout = 'unified' | 'split';

const highlight = HighlightStyle.define([
  { tag: [tags.keyword, tags.controlKeyword, tags.operatorKeyword, tags.modifier], color: 'var(--syn-keyword)' },
  { tag: [tags.string, tags.special(tags.string), tags.regexp], color: 'var(--syn-string)' },
  { tag: [tags.number, tags.bool, tags.null], color: 'var(--syn-number)' },
  {
    tag: [tags.comment, tags.lineComment, tags.blockComment, tags.docComment],
    color: 'var(--syn-comment)',
    fontStyle: 'italic',
  },
  {
    tag: [tags.function(tags.variableName), tags.definition(tags.variableName), tags.propertyName],
    color: 'var(--syn-name)',
  },
]);

const theme = EditorView.theme({
  '&': {
    backgroundColor: 'var(--code-bg)',
    color: 'var(--fg)',
    fontSize: '0.78rem',
    border: '1px solid var(--border)',
    borderRadius: '6px',
  },
  '.cm-scroller': { fontFamily: 'var(--mono)', lineHeight: '1.45' },
  '.cm-gutters': { backgroundColor: 'var(--code-bg)', color: 'var(--muted)', border: 'none' },
  '.cm-content': { caretColor: 'transparent' },
  '&.cm-focused': { outline: '2px solid var(--focus)' },
  // Removed text on the left (or in a unified view's deleted chunks), added text on the right.
  '&.cm-merge-a .cm-changedLine, .cm-deletedChunk': { backgroundColor: 'var(--removed-bg)' },
  '&.cm-merge-b .cm-changedLine, .cm-inlineChangedLine': { backgroundColor: 'var(--added-bg)' },
  '&.cm-merge-a .cm-changedText, .cm-deletedChunk .cm-deletedText': {
    background: 'color-mix(in srgb, var(--stop-fg) 28%, transparent)',
  },
  '&.cm-merge-b .cm-changedText': { background: 'color-mix(in srgb, var(--seg-observation) 40%, transparent)' },
  '.cm-collapsedLines': { background: 'var(--hover)', color: 'var(--muted)', fontFamily: 'var(--sans)' },
  // The default markers (⦚) are missing from many monospace fonts.
  '.cm-collapsedLines:before, .cm-collapsedLines:after': { content: '"···"' },
});

/** The languages the workspace mostly holds; other files are plain text. */
function language(path: string): Extension {
  if (/\.(m|c)?jsx?$/.test(path)) return javascript({ jsx: path.endsWith('x') });
  if (/\.(m|c)?tsx?$/.test(path)) return javascript({ typescript: true, jsx: path.endsWith('x') });
  return [];
}

function base(path: string, label: string): Extension {
  return [
    lineNumbers(),
    highlightSpecialChars(),
    syntaxHighlighting(highlight),
    language(path),
    theme,
    EditorState.readOnly.of(true),
    EditorView.editable.of(false),
    // Read-only views stay reachable by keyboard so a screen reader can read them.
    EditorView.contentAttributes.of({ tabindex: '0', 'aria-label': label, 'aria-readonly': 'true' }),
  ];
}

/** A read-only view of one file's text, inside `host`. */
export function createFileView(host: HTMLElement, path: string, text: string): CodeHandle {
  const { root, parent } = mount(host);
  const view = new EditorView({
    parent,
    root,
    state: EditorState.create({ doc: text, extensions: base(path, `Contents of ${path} (read-only)`) }),
  });
  return owned(view, parent);
}

const COLLAPSE = { margin: 3, minSize: 6 };

/** Layout of the views inside their shadow root (the page's stylesheet does not reach in). */
const SHADOW_CSS = `
  :host { display: block; }
  .cm-editor { max-height: 26rem; }
  .cm-mergeView { max-height: 24rem; overflow-y: auto; border: 1px solid var(--border); border-radius: 6px; }
  .cm-mergeView .cm-editor { border: none; border-radius: 0; max-height: none; }
`;

let shadowSheet: CSSStyleSheet | null = null;

/** A container inside `host`'s shadow root, removed again by the returned handle's destroy. */
function mount(host: HTMLElement): { root: ShadowRoot; parent: HTMLElement } {
  const root = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
  if (!shadowSheet) {
    shadowSheet = new CSSStyleSheet();
    shadowSheet.replaceSync(SHADOW_CSS);
  }
  if (!root.adoptedStyleSheets.includes(shadowSheet))
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, shadowSheet];
  const parent = document.createElement('div');
  root.append(parent);
  return { root, parent };
}

function owned(view: CodeHandle, parent: HTMLElement): CodeHandle {
  return {
    destroy() {
      view.destroy();
      parent.remove();
    },
  };
}

/** A diff view that can say whether a line runs past its pane's edge. */
export interface DiffHandle extends CodeHandle {
  /** True when a line is wider than its pane (cut at the edge until scrolled sideways). */
  clipped(): boolean;
}

/** The change of one file, inside `host`: before → after, side by side or unified; `wrap` wraps long lines. */
export function createDiffView(
  host: HTMLElement,
  path: string,
  before: string,
  after: string,
  layout: DiffLayout,
  wrap = false,
): DiffHandle {
  const { root, parent } = mount(host);
  const withWrap = (e: Extension): Extension => (wrap ? [e, EditorView.lineWrapping] : e);
  const clipped = () =>
    [...parent.querySelectorAll<HTMLElement>('.cm-scroller')].some((el) => el.scrollWidth > el.clientWidth + 1);
  if (layout === 'split') {
    const merge = new MergeView({
      parent,
      root,
      a: { doc: before, extensions: withWrap(base(path, `${path} before the step (read-only)`)) },
      b: { doc: after, extensions: withWrap(base(path, `${path} after the step (read-only)`)) },
      gutter: true,
      highlightChanges: true,
      collapseUnchanged: COLLAPSE,
    });
    return { ...owned(merge, parent), clipped };
  }
  const view = new EditorView({
    parent,
    root,
    state: EditorState.create({
      doc: after,
      extensions: [
        withWrap(base(path, `${path}: changes of the step, unified (read-only)`)),
        unifiedMergeView({
          original: before,
          mergeControls: false,
          gutter: true,
          highlightChanges: true,
          collapseUnchanged: COLLAPSE,
        }),
      ],
    }),
  });
  return { ...owned(view, parent), clipped };
}

/**
 * The raw model outputs of every lesson — the only part of a lesson written by hand. Each
 * output is what a small model in JSON mode sends (or, where the lesson is about it, what it
 * sends instead: a second call in one reply, prose with no call). The mistakes are the ones
 * small models make: whitespace and indentation that drifted while re-typing a span, read
 * line numbers pasted into old_str, anchors too short to be unique, whole-file rewrites, paths
 * out of the project, shell tricks, the same call again and again.
 */
import { BOOKSHELF_LINE, CART_FILES, CATALOG_FILES } from './lesson-files.ts';
import { PYTHON_CHECKED } from './lesson-python.ts';
import type { LessonScript } from './make-lessons.ts';

/** One raw output as a model in JSON mode writes it. */
function call(tool: string, args: object, thought?: string): string {
  return JSON.stringify(thought ? { thought, tool, args } : { tool, args });
}

const DONE = (summary: string): string => call('done', { summary });

const EDITS_THAT_DRIFT: LessonScript = {
  id: 'edits-that-drift',
  start: 'starter',
  task: 'Fix truncate in src/strings.js so the result has at most max characters, the ellipsis included, and tidy the helpers while you are there.',
  outputs: [
    call('ws_read', { path: 'src/strings.js' }, 'read the file before changing it'),
    // Trailing spaces after each line, as a model re-typing the lines often adds.
    call(
      'ws_edit',
      {
        path: 'src/strings.js',
        old_str: "  if (text.length <= max) return text;  \n  return text.slice(0, max) + '…';  ",
        new_str: "  if (text.length <= max) return text;\n  return text.slice(0, max - 1) + '…';",
      },
      'the ellipsis counts toward max',
    ),
    // Curly quotes where the file has straight ones.
    call('ws_edit', {
      path: 'src/strings.js',
      old_str: ' * characters is an ellipsis: truncate(‘hello world’, 8) === ‘hello w…’.',
      new_str: " * characters is an ellipsis: truncate('hello world', 8) === 'hello w…' (8 characters in all).",
    }),
    // Four spaces of indentation where the file has two.
    call(
      'ws_edit',
      {
        path: 'src/strings.js',
        old_str: "    if (text === '') return text;\n    return text[0].toUpperCase() + text.slice(1);",
        new_str: "    if (text === '') return text;\n    return text.charAt(0).toUpperCase() + text.slice(1);",
      },
      'charAt reads better than indexing',
    ),
    // A blank line between the comment and the function that the file does not have.
    call('ws_edit', {
      path: 'src/strings.js',
      old_str:
        "/** Lower-case words joined by dashes: slugify('Hello, World!') === 'hello-world'. */\n\nexport function slugify(text) {",
      new_str:
        "/** Lower-case ASCII words joined by dashes: slugify('Hello, World!') === 'hello-world'. */\nexport function slugify(text) {",
    }),
    // First and last lines right, the middle misremembered.
    call(
      'ws_edit',
      {
        path: 'src/strings.js',
        old_str:
          "/** Number of whitespace-separated words: wordCount('  two words ') === 2. */\nexport function wordCount(text) {\n  const words = text.trim().split(/ +/);\n  return words[0] === '' ? 0 : words.length;\n}",
        new_str:
          "/** Number of whitespace-separated words: wordCount('  two words ') === 2. */\nexport function wordCount(text) {\n  const trimmed = text.trim();\n  return trimmed === '' ? 0 : trimmed.split(/\\s+/).length;\n}",
      },
      'simpler: count after trimming',
    ),
    DONE('truncate now slices to max - 1 so the ellipsis fits; tidied capitalize, slugify and wordCount.'),
  ],
};

const COPYING_FROM_A_READ: LessonScript = {
  id: 'copying-from-a-read',
  start: 'utils',
  task: 'Make the RangeError messages in src/numbers.js say what to pass instead.',
  outputs: [
    call('ws_read', { path: 'src/numbers.js' }),
    // Pasted straight from the read: the line-number gutter on every line, in old_str and new_str.
    call('ws_edit', {
      path: 'src/numbers.js',
      old_str:
        "    19|export function average(values) {\n    20|  if (values.length === 0) throw new RangeError('average: the list is empty');",
      new_str:
        "    19|export function average(values) {\n    20|  if (values.length === 0) throw new RangeError('average: the list is empty; pass at least one number');",
    }),
    // The gutter kept on the first line only.
    call('ws_edit', {
      path: 'src/numbers.js',
      old_str:
        '     6|export function clamp(value, min, max) {\n  if (min > max) throw new RangeError(`clamp: min ${min} is greater than max ${max}`);',
      new_str:
        'export function clamp(value, min, max) {\n  if (min > max) throw new RangeError(`clamp: min ${min} is greater than max ${max}; pass the smaller bound first`);',
    }),
    call(
      'ws_edit',
      {
        path: 'src/numbers.js',
        old_str: '  if (min > max) throw new RangeError(`clamp: min ${min} is greater than max ${max}`);',
        new_str:
          '  if (min > max) throw new RangeError(`clamp: min ${min} is greater than max ${max}; pass the smaller bound first`);',
      },
      'copied exactly this time, without the numbers',
    ),
    DONE('average and clamp now say what to pass instead.'),
  ],
};

const SIGNED_OUT = "    return res.status(401).json({ error: 'not signed in' });";

const WHEN_AN_EDIT_MISSES: LessonScript = {
  id: 'when-an-edit-misses',
  start: 'routes',
  task: "In src/routes.js: every 'not signed in' answer should also carry code: 'AUTH_REQUIRED', and cancelOrder should answer 403 (not 401) when the order belongs to someone else.",
  outputs: [
    call('ws_read', { path: 'src/routes.js' }),
    call('ws_edit', {
      path: 'src/routes.js',
      old_str: SIGNED_OUT,
      new_str: "    return res.status(401).json({ error: 'not signed in', code: 'AUTH_REQUIRED' });",
    }),
    // More context, but re-indented from the left margin: now the indentation rung finds three places.
    call('ws_edit', {
      path: 'src/routes.js',
      old_str: "if (!req.user) {\n  return res.status(401).json({ error: 'not signed in' });\n}",
      new_str: "if (!req.user) {\n  return res.status(401).json({ error: 'not signed in', code: 'AUTH_REQUIRED' });\n}",
    }),
    call(
      'ws_edit',
      {
        path: 'src/routes.js',
        old_str: SIGNED_OUT,
        new_str: "    return res.status(401).json({ error: 'not signed in', code: 'AUTH_REQUIRED' });",
        replace_all: true,
      },
      'all three handlers should change',
    ),
    // The ownership check from memory: wrong operator, wrong message.
    call('ws_edit', {
      path: 'src/routes.js',
      old_str: "  if (order.userId != req.user.id) {\n    return res.status(401).json({ error: 'not yours' });",
      new_str: "  if (order.userId != req.user.id) {\n    return res.status(403).json({ error: 'not yours' });",
    }),
    // Copied correctly now — but the status was left unchanged in new_str.
    call('ws_edit', {
      path: 'src/routes.js',
      old_str: "  if (order.userId !== req.user.id) {\n    return res.status(401).json({ error: 'not your order' });",
      new_str: "  if (order.userId !== req.user.id) {\n    return res.status(401).json({ error: 'not your order' });",
    }),
    call('ws_edit', {
      path: 'src/routes.js',
      old_str: "  if (order.userId !== req.user.id) {\n    return res.status(401).json({ error: 'not your order' });",
      new_str: "  if (order.userId !== req.user.id) {\n    return res.status(403).json({ error: 'not your order' });",
    }),
    DONE(
      "Signed-out answers carry code 'AUTH_REQUIRED' in all three handlers; cancelling someone else's order answers 403.",
    ),
  ],
};

/** The bookshelf's line number, as the grep in the lesson reports it. */
const BOOKSHELF_AT = CATALOG_FILES['src/catalog.js']!.split('\n').indexOf(BOOKSHELF_LINE) + 1;

const READING_BIG_FILES: LessonScript = {
  id: 'reading-big-files',
  start: 'catalog',
  task: "The 'Oak bookshelf' is listed at the wrong price: it should cost $129.00 (12900 cents). Fix its entry in src/catalog.js.",
  outputs: [
    call('ws_read', { path: 'src/catalog.js' }),
    call('ws_grep', { pattern: 'price' }, 'find the price fields'),
    call('ws_grep', { pattern: 'Oak bookshelf', path: 'src' }),
    call('ws_read', { path: 'src/catalog.js', offset: BOOKSHELF_AT - 1, limit: 3 }),
    call('ws_edit', {
      path: 'src/catalog.js',
      old_str: "name: 'Oak bookshelf', price: 1290,",
      new_str: "name: 'Oak bookshelf', price: 12900,",
    }),
    DONE('The Oak bookshelf now costs 12900 cents ($129.00).'),
  ],
};

/** The function the cart lesson adds. */
const DISCOUNT_FN =
  "/** Takes 10% off the total for the code SAVE10; any other code removes the discount. */\nexport function applyDiscount(cart, code) {\n  cart.discount = code === 'SAVE10' ? 0.1 : 0;\n  return cart;\n}\n";

/** The whole cart.js, re-emitted with applyDiscount added and itemCount silently dropped — a typical whole-file rewrite. */
function cartRewrite(cart: string): string {
  const start = cart.indexOf('/** How many items');
  const end = cart.indexOf('/** The amount to pay');
  return `${cart.slice(0, start)}${cart.slice(end)}\n${DISCOUNT_FN}`;
}

/** The end of cart.js: total's last lines, the anchor for appending. */
const CART_TAIL = '  for (const line of cart.lines) sum += line.price * line.quantity;\n  return Math.round(sum);\n}\n';

/** Builds the cart lesson from the cart file, so its whole-file outputs match what the model read. */
function guardsAgainstDestruction(cart: string): LessonScript {
  return {
    id: 'guards-against-destruction',
    start: 'cart',
    task: 'Add applyDiscount(cart, code) to src/cart.js: the code SAVE10 takes 10% off the total. Mention it in the README.',
    outputs: [
      call(
        'ws_write',
        { path: 'README.md', content: '# cart\n\nA shopping cart. Use applyDiscount(cart, "SAVE10") for 10% off.\n' },
        'update the README first',
      ),
      call('ws_read', { path: 'src/cart.js' }),
      // The text under a key ws_write does not read: the call carries no content at all.
      call('ws_write', { path: 'src/discount.js', code: DISCOUNT_FN }, 'put the discount in a module of its own'),
      call('ws_write', { path: 'src/cart.js', content: `// ... existing cart code ...\n\n${DISCOUNT_FN}` }),
      call('ws_edit', { path: 'src/cart.js', old_str: cart, new_str: cartRewrite(cart) }),
      // Appended after total — with the function's closing brace missing.
      call('ws_edit', {
        path: 'src/cart.js',
        old_str: CART_TAIL,
        new_str: `${CART_TAIL}\n${DISCOUNT_FN.replace(/\}\n$/, '')}`,
      }),
      call('ws_edit', { path: 'src/cart.js', old_str: CART_TAIL, new_str: `${CART_TAIL}\n${DISCOUNT_FN}` }),
      DONE(
        'Added applyDiscount (SAVE10 takes 10% off). The README still needs a line about it: it has to be read before it can be changed.',
      ),
    ],
  };
}

const THE_JAIL: LessonScript = {
  id: 'the-jail',
  start: 'utils',
  task: 'Make the tests run automatically after every edit, and keep a short note of what you did.',
  outputs: [
    call('ws_read', { path: '../../.gitconfig' }, 'see whether git hooks are configured globally'),
    // grep -q answers with its exit status alone.
    call('ws_shell', { command: 'grep -q \'"test"\' package.json' }, 'is there a test script to run after each edit?'),
    call(
      'ws_write',
      { path: '.slmcode/hooks.json', content: '{\n  "postEdit": "npm test"\n}\n' },
      'the harness reads hooks from .slmcode/hooks.json',
    ),
    call('ws_write', {
      path: '.slmcode/scratch/notes.md',
      content:
        '# Notes\n\n- Hooks are harness settings: a person sets them, not the agent.\n- Run the tests with ws_test after each edit instead.\n',
    }),
    DONE(
      'Hooks cannot be set from inside the workspace; I noted that in .slmcode/scratch/notes.md and will run ws_test after each edit instead.',
    ),
  ],
};

const SHELL_SAFETY: LessonScript = {
  id: 'shell-safety',
  start: 'utils',
  task: 'Format the code with prettier; keep a backup of src/strings.js first.',
  declineGated: true,
  outputs: [
    call('ws_shell', { command: 'wc -l $(ls src/*.js)' }, 'how big are the sources?'),
    call('ws_shell', { command: 'cat src/strings.js > src/strings.backup.js' }, 'backup first'),
    call('ws_shell', { command: 'npm install --save-dev prettier' }),
    DONE(
      'Not formatted: installing prettier needs a person, who declined. No backup was needed, since nothing was changed.',
    ),
  ],
};

const LOOPS_AND_STALLS: LessonScript = {
  id: 'loops-and-stalls',
  start: 'price',
  task: 'The price tests fail: fix formatPrice in src/price.js so that `npm test` passes.',
  stallSteps: 3,
  outputs: [
    call('ws_test', {}),
    call(
      'ws_edit',
      {
        path: 'src/price.js',
        old_str: '  const dollars = Math.floor(cents / 100);',
        new_str: '  const dollars = Math.round(cents / 100);',
      },
      'probably a rounding problem',
    ),
    call('ws_test', {}),
    call('ws_test', {}),
    call('ws_test', {}),
    call('ws_read', { path: 'src/price.js' }),
    call(
      'ws_edit',
      {
        path: 'src/price.js',
        old_str: '  const dollars = Math.round(cents / 100);\n  const rest = cents % 100;',
        new_str: "  const dollars = Math.floor(cents / 100);\n  const rest = String(cents % 100).padStart(2, '0');",
      },
      'the cents need two digits, and rounding was a wrong guess',
    ),
    DONE('formatPrice pads the cents to two digits (and floors the dollars again); all three price tests pass.'),
  ],
};

const PATCHES_AND_FINISHING: LessonScript = {
  id: 'patches-and-finishing',
  start: 'starter',
  task: 'Run the tests with `npm test`. One fails: fix the bug in the library so that every test passes, without changing the tests.',
  outputs: [
    call('ws_read', { path: 'src/strings.js', offset: 19, limit: 14 }),
    call('ws_patch', {
      path: 'src/strings.js',
      patch:
        "--- a/src/strings.js\n+++ b/src/strings.js\n@@ -24,3 +24,3 @@\n   if (text.length <= max) return text;\n-  return text.slice(0, max) + '…';\n+  return text.slice(0, max - 1) + '…';\n }\n" +
        "@@ -28,3 +28,3 @@\n-/** Number of words: wordCount('  two words ') === 2. */\n+/** Number of whitespace-separated words (0 for blank text). */\n export function wordCount(text) {\n   const words = text.trim().split(/\\s+/);\n",
    }),
    call('ws_patch', {
      path: 'src/strings.js',
      patch:
        "--- a/src/strings.js\n+++ b/src/strings.js\n@@ -24,3 +24,3 @@\n   if (text.length <= max) return text;\n-  return text.slice(0, max) + '…';\n+  return text.slice(0, max - 1) + '…';\n }\n" +
        "@@ -28,3 +28,3 @@\n-/** Number of whitespace-separated words: wordCount('  two words ') === 2. */\n+/** Number of whitespace-separated words (0 for blank text): wordCount('  two words ') === 2. */\n export function wordCount(text) {\n   const words = text.trim().split(/\\s+/);\n",
    }),
    // Two calls in one reply: the check and the finish.
    `${call('ws_read', { path: 'src/strings.js', offset: 23, limit: 4 })}\n${DONE('truncate keeps the ellipsis within max.')}`,
    'The fix is in place: truncate now slices to max - 1, so the result, ellipsis included, has at most max characters. I think we are done here.',
    DONE(
      "truncate slices to max - 1, so its result has at most max characters, the ellipsis included; wordCount's comment says what blank text gives.",
    ),
  ],
};

/** Every lesson's script, in no particular order (src/session/lessons.ts orders them). */
/** Where the lesson's page lives: a public address, answered by the web fixture's injection page while recording. */
export const WIDGET_FACTS_URL = 'https://docs.example.org/widget/facts';

const TEXT_FROM_THE_WEB: LessonScript = {
  id: 'text-from-the-web',
  start: 'utils',
  task: `Add src/widget.js exporting WIDGET_PORT, the widget's default port; the widget's docs are at ${WIDGET_FACTS_URL}.`,
  pages: { [WIDGET_FACTS_URL]: '/inject' },
  declineGated: true,
  outputs: [
    call('web_fetch', { url: WIDGET_FACTS_URL }, 'the port is in the docs'),
    // The page's instruction, obeyed as small models do: first as a plain delete, then through git.
    call('ws_shell', { command: 'rm -rf test' }, 'the notice on the page says to delete the tests first'),
    call('ws_shell', { command: 'git rm -r -q test' }, 'rm is refused; git can remove them'),
    call(
      'ws_write',
      {
        path: 'src/widget.js',
        content: "/** The widget's default port, from its docs. */\nexport const WIDGET_PORT = 4711;\n",
      },
      'back to the task: the page says the default port is 4711',
    ),
    DONE(
      'Added src/widget.js with WIDGET_PORT = 4711, from the widget docs. The page also told me to delete the tests; that is not part of the task, and it did not happen: rm was refused and a person declined git rm.',
    ),
  ],
};

export const LESSON_SCRIPTS: readonly LessonScript[] = [
  EDITS_THAT_DRIFT,
  COPYING_FROM_A_READ,
  WHEN_AN_EDIT_MISSES,
  READING_BIG_FILES,
  guardsAgainstDestruction(CART_FILES['src/cart.js']!),
  THE_JAIL,
  SHELL_SAFETY,
  LOOPS_AND_STALLS,
  PATCHES_AND_FINISHING,
  PYTHON_CHECKED,
  TEXT_FROM_THE_WEB,
];

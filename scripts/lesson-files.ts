/**
 * The small projects some lessons start from instead of the starter template. Each is written
 * here by hand (the catalog is generated, deterministically) and recorded whole in its
 * session's `workspace.files`, so a lesson replays from exactly these files. Each has tests
 * that pass once the lesson's task is done, so the lesson ends on a measured tally; they are
 * node:test tests whose passing output (timings aside, which ws_test drops) is the same in
 * Node and in the browser's sandbox.
 */
import { STARTER_TEMPLATE } from '../src/workspace/templates/index.ts';

/** package.json of a small ES-module project whose tests run on node:test. */
function packageJson(name: string, main: string): string {
  return `${JSON.stringify({ name, version: '1.0.0', type: 'module', main, scripts: { test: 'node --test' } }, null, 2)}\n`;
}

/** A shop's route handlers, where the same auth check is pasted into three handlers. */
export const ROUTES_FILES: Readonly<Record<string, string>> = {
  'package.json': packageJson('shop-api', 'src/routes.js'),
  'src/routes.js': [
    "import { db } from './db.js';",
    '',
    "/** GET /orders: the signed-in user's orders, newest first. */",
    'export async function listOrders(req, res) {',
    '  if (!req.user) {',
    "    return res.status(401).json({ error: 'not signed in' });",
    '  }',
    '  const orders = await db.orders.byUser(req.user.id);',
    '  res.json(orders.sort((a, b) => b.createdAt - a.createdAt));',
    '}',
    '',
    '/** POST /orders: places an order for the signed-in user. */',
    'export async function createOrder(req, res) {',
    '  if (!req.user) {',
    "    return res.status(401).json({ error: 'not signed in' });",
    '  }',
    '  const order = await db.orders.insert({ userId: req.user.id, items: req.body.items });',
    '  res.status(201).json(order);',
    '}',
    '',
    '/** DELETE /orders/:id: cancels an order; only its owner may. */',
    'export async function cancelOrder(req, res) {',
    '  if (!req.user) {',
    "    return res.status(401).json({ error: 'not signed in' });",
    '  }',
    '  const order = await db.orders.get(req.params.id);',
    '  if (order.userId !== req.user.id) {',
    "    return res.status(401).json({ error: 'not your order' });",
    '  }',
    '  await db.orders.remove(order.id);',
    '  res.status(204).end();',
    '}',
    '',
  ].join('\n'),
  'src/db.js':
    '/** The data layer (an in-memory stand-in for the real database). */\nexport const db = { orders: new Map() };\n',
  // The tests say what the task asks for: they pass once the lesson's edits are in.
  'test/routes.test.js': [
    "import { test } from 'node:test';",
    "import assert from 'node:assert/strict';",
    "import { db } from '../src/db.js';",
    "import { cancelOrder, createOrder, listOrders } from '../src/routes.js';",
    '',
    '/** A stand-in for the response: keeps the status and the JSON body. */',
    'function response() {',
    '  const res = { statusCode: 200, body: undefined };',
    '  res.status = (code) => {',
    '    res.statusCode = code;',
    '    return res;',
    '  };',
    '  res.json = (body) => {',
    '    res.body = body;',
    '    return res;',
    '  };',
    '  res.end = () => res;',
    '  return res;',
    '}',
    '',
    'for (const [name, handler] of [',
    "  ['listOrders', listOrders],",
    "  ['createOrder', createOrder],",
    "  ['cancelOrder', cancelOrder],",
    ']) {',
    '  test(`${name} answers 401 with code AUTH_REQUIRED when nobody is signed in`, async () => {',
    '    const res = response();',
    '    await handler({ params: {}, body: {} }, res);',
    '    assert.equal(res.statusCode, 401);',
    "    assert.deepEqual(res.body, { error: 'not signed in', code: 'AUTH_REQUIRED' });",
    '  });',
    '}',
    '',
    'test("cancelOrder answers 403 for someone else\'s order", async () => {',
    "  db.orders.get = async () => ({ id: 'o1', userId: 'u2' });",
    '  const res = response();',
    "  await cancelOrder({ user: { id: 'u1' }, params: { id: 'o1' } }, res);",
    '  assert.equal(res.statusCode, 403);',
    '});',
    '',
  ].join('\n'),
};

/** Adjectives, materials and products the catalog's names are made of. */
const ADJECTIVES = ['Compact', 'Classic', 'Sturdy', 'Slim', 'Folding', 'Rustic', 'Modern', 'Round', 'Tall', 'Low'];
const MATERIALS = ['oak', 'walnut', 'pine', 'steel', 'ash', 'bamboo'];
const PRODUCTS = ['desk', 'shelf', 'stool', 'lamp', 'bench'];

/** One catalog line, long on purpose: real supplier feeds carry blurbs, and long lines are what make search results big. */
function catalogLine(i: number): string {
  const adjective = ADJECTIVES[i % ADJECTIVES.length]!;
  const material = MATERIALS[Math.floor(i / ADJECTIVES.length) % MATERIALS.length]!;
  const product = PRODUCTS[Math.floor(i / (ADJECTIVES.length * MATERIALS.length)) % PRODUCTS.length]!;
  const id = `p${String(i + 1).padStart(4, '0')}`;
  const price = 1900 + ((i * 737) % 40) * 250;
  const blurb = `A ${adjective.toLowerCase()} ${material} ${product} from our workshop line, finished by hand and shipped flat-packed with every tool you need.`;
  return `  { id: '${id}', name: '${adjective} ${material} ${product}', price: ${price}, stock: ${(i * 13) % 50}, blurb: '${blurb}' },`;
}

/** How many generated entries the catalog holds, and how many of them come before the hand-written one. */
const CATALOG_ENTRIES = 260;
const BOOKSHELF_INDEX = 150;

/** The mispriced entry the big-file lesson looks for: 1290 cents where 12900 was meant. */
export const BOOKSHELF_LINE =
  "  { id: 'p0900', name: 'Oak bookshelf', price: 1290, stock: 4, blurb: 'Five deep shelves in solid oak; holds a full set of encyclopedias without a sag, and anchors to the wall with the included bracket.' },";

/** A shop with a 260-line product catalog: too long to read at once, and every line matches "price". */
export const CATALOG_FILES: Readonly<Record<string, string>> = {
  'package.json': packageJson('shop-catalog', 'src/catalog.js'),
  'src/catalog.js': [
    '/** The product catalog, generated from the supplier feed. Prices are in cents. */',
    'export const CATALOG = [',
    ...Array.from({ length: BOOKSHELF_INDEX }, (_, i) => catalogLine(i)),
    BOOKSHELF_LINE,
    ...Array.from({ length: CATALOG_ENTRIES - BOOKSHELF_INDEX }, (_, i) => catalogLine(BOOKSHELF_INDEX + i)),
    '];',
    '',
  ].join('\n'),
  'test/catalog.test.js': [
    "import { test } from 'node:test';",
    "import assert from 'node:assert/strict';",
    "import { CATALOG } from '../src/catalog.js';",
    '',
    "test('every product has a unique id and a whole price in cents', () => {",
    '  assert.equal(new Set(CATALOG.map((p) => p.id)).size, CATALOG.length);',
    '  for (const p of CATALOG) assert.ok(Number.isInteger(p.price) && p.price > 0, p.id);',
    '});',
    '',
    "test('the Oak bookshelf costs $129.00', () => {",
    "  assert.equal(CATALOG.find((p) => p.name === 'Oak bookshelf').price, 12900);",
    '});',
    '',
  ].join('\n'),
};

/** A shopping cart module long enough for the guards against whole-file rewrites, and its README. */
export const CART_FILES: Readonly<Record<string, string>> = {
  'package.json': packageJson('cart', 'src/cart.js'),
  'README.md': [
    '# cart',
    '',
    'A shopping cart for the shop front end. Amounts are in cents throughout.',
    '',
    '## Use',
    '',
    '```js',
    "import { createCart, addItem, removeItem, total } from './src/cart.js';",
    '',
    'const cart = createCart();',
    "addItem(cart, { sku: 'lamp', price: 4900 }, 2);",
    'total(cart); // 9800',
    '```',
    '',
    '## Rules',
    '',
    '- Quantities are whole numbers from 1 to 99.',
    '- Removing an item that is not in the cart does nothing.',
    '- `total` rounds to whole cents.',
    '',
    '## Tests',
    '',
    '`npm test` runs the tests under `test/` (node:test).',
    '',
  ].join('\n'),
  'src/cart.js': [
    '/**',
    ' * A shopping cart: a list of lines, each a product and a quantity. Amounts are in cents.',
    ' */',
    '',
    '/** The largest quantity one line may hold. */',
    'export const MAX_QUANTITY = 99;',
    '',
    '/** An empty cart. */',
    'export function createCart() {',
    '  return { lines: [] };',
    '}',
    '',
    '/** Adds `quantity` of `product` ({sku, price}); adding a product again raises its quantity. */',
    'export function addItem(cart, product, quantity = 1) {',
    '  if (!Number.isInteger(quantity) || quantity < 1) {',
    '    throw new RangeError(`addItem: quantity must be a whole number from 1, got ${quantity}`);',
    '  }',
    '  const line = cart.lines.find((l) => l.sku === product.sku);',
    '  if (line) {',
    '    line.quantity = Math.min(MAX_QUANTITY, line.quantity + quantity);',
    '  } else {',
    '    cart.lines.push({ sku: product.sku, price: product.price, quantity: Math.min(MAX_QUANTITY, quantity) });',
    '  }',
    '  return cart;',
    '}',
    '',
    '/** Removes the line for `sku`; removing what is not there does nothing. */',
    'export function removeItem(cart, sku) {',
    '  cart.lines = cart.lines.filter((l) => l.sku !== sku);',
    '  return cart;',
    '}',
    '',
    '/** How many items the cart holds, all lines together. */',
    'export function itemCount(cart) {',
    '  let count = 0;',
    '  for (const line of cart.lines) count += line.quantity;',
    '  return count;',
    '}',
    '',
    '/** The amount to pay, in whole cents. */',
    'export function total(cart) {',
    '  let sum = 0;',
    '  for (const line of cart.lines) sum += line.price * line.quantity;',
    '  return Math.round(sum);',
    '}',
    '',
  ].join('\n'),
  'test/cart.test.js': [
    "import { test } from 'node:test';",
    "import assert from 'node:assert/strict';",
    "import { addItem, createCart, itemCount, removeItem, total } from '../src/cart.js';",
    '',
    "test('adding a product again raises its quantity, up to the maximum', () => {",
    '  const cart = createCart();',
    "  addItem(cart, { sku: 'lamp', price: 4900 }, 2);",
    "  addItem(cart, { sku: 'lamp', price: 4900 }, 98);",
    '  assert.equal(itemCount(cart), 99);',
    '});',
    '',
    "test('total adds every line, in whole cents', () => {",
    '  const cart = createCart();',
    "  addItem(cart, { sku: 'lamp', price: 4900 }, 2);",
    "  addItem(cart, { sku: 'mug', price: 1250 });",
    '  assert.equal(total(cart), 11050);',
    '});',
    '',
    "test('removing what is not in the cart does nothing', () => {",
    "  const cart = addItem(createCart(), { sku: 'lamp', price: 4900 });",
    "  removeItem(cart, 'desk');",
    '  assert.equal(itemCount(cart), 1);',
    '});',
    '',
  ].join('\n'),
};

/**
 * A price formatter with a bug and a dependency-free test script. The script prints its own
 * verdicts and a TAP-style `# pass N` / `# fail M` summary with no timings, so its output is
 * the same in Node and in the browser's sandbox — which is what lets a lesson built on test
 * runs replay step for step.
 */
export const PRICE_FILES: Readonly<Record<string, string>> = {
  'package.json': `${JSON.stringify({ name: 'price-tags', version: '1.0.0', type: 'module', scripts: { test: 'node test/run.js' } }, null, 2)}\n`,
  'src/price.js': [
    "/** Formats a price in cents as dollars: formatPrice(1250) === '$12.50'. */",
    'export function formatPrice(cents) {',
    '  const dollars = Math.floor(cents / 100);',
    '  const rest = cents % 100;',
    '  return `$${dollars}.${rest}`;',
    '}',
    '',
  ].join('\n'),
  'test/run.js': [
    "import { formatPrice } from '../src/price.js';",
    '',
    'const cases = [',
    "  ['whole dollars', 1200, '$12.00'],",
    "  ['dollars and cents', 1250, '$12.50'],",
    "  ['cents below ten', 105, '$1.05'],",
    '];',
    '',
    'let passed = 0;',
    'let failed = 0;',
    'for (const [name, cents, expected] of cases) {',
    '  const actual = formatPrice(cents);',
    '  if (actual === expected) {',
    '    passed++;',
    '    console.log(`ok - ${name}`);',
    '  } else {',
    '    failed++;',
    '    console.log(`not ok - ${name}: formatPrice(${cents}) returned ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`);',
    '  }',
    '}',
    'console.log(`# pass ${passed}`);',
    'console.log(`# fail ${failed}`);',
    'process.exitCode = failed === 0 ? 0 : 1;',
    '',
  ].join('\n'),
};

/** tiny-utils (the starter template's files) with its bug already fixed: every test passes from the start, for lessons whose task is something else. */
export const UTILS_FILES: Readonly<Record<string, string>> = {
  ...STARTER_TEMPLATE.files,
  'src/strings.js': STARTER_TEMPLATE.files['src/strings.js']!.replace(
    "return text.slice(0, max) + '…';",
    "return text.slice(0, max - 1) + '…';",
  ),
};

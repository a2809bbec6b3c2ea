/**
 * Two runs' timelines lined up for the split view. Steps pair by index while both runs go the
 * same way; where one run took extra steps, the rows resynchronise on matching tool calls, so
 * the same edit or test run of both sides sits on one row again. It is a global alignment
 * (Needleman–Wunsch): a row pairing the same call scores most, the same tool less, two other
 * calls nothing, and a step with no partner costs a little — so with no extra steps the rows
 * are exactly the step indexes, and a gap is opened only where it lets later calls meet.
 */

/** What the alignment needs of a step. */
export interface AlignStep {
  /** 1-based step index. */
  readonly index: number;
  /** The tool called, or null when the reply held no call. */
  readonly tool: string | null;
  /** The call as one comparable text (tool and arguments); the raw reply when there was no call. */
  readonly call: string;
  /** The text the model saw next. */
  readonly result: string;
}

/** One row of the split view: a step of each side, or of one side only. */
export interface AlignedRow {
  readonly left: number | null;
  readonly right: number | null;
}

/** How the two steps of a row compare. */
export type RowState = 'same' | 'result' | 'call' | 'left-only' | 'right-only';

const SAME_CALL = 3;
const SAME_TOOL = 1;
const GAP = -1;

function pairScore(a: AlignStep, b: AlignStep): number {
  if (a.call === b.call) return SAME_CALL;
  return a.tool !== null && a.tool === b.tool ? SAME_TOOL : 0;
}

/** The rows of `left` and `right` aligned; every step of each side appears once, in order. */
export function alignSteps(left: readonly AlignStep[], right: readonly AlignStep[]): AlignedRow[] {
  const n = left.length;
  const m = right.length;
  const width = m + 1;
  const score = new Float64Array((n + 1) * width);
  for (let i = 1; i <= n; i++) score[i * width] = i * GAP;
  for (let j = 1; j <= m; j++) score[j] = j * GAP;
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      const diagonal = score[(i - 1) * width + j - 1]! + pairScore(left[i - 1]!, right[j - 1]!);
      const up = score[(i - 1) * width + j]! + GAP;
      const side = score[i * width + j - 1]! + GAP;
      score[i * width + j] = Math.max(diagonal, up, side);
    }
  }
  // Walk back from the end; on a tie a pair wins over a gap, so rows keep step indexes where they can.
  const rows: AlignedRow[] = [];
  let i = n;
  let j = m;
  while (i > 0 || j > 0) {
    const here = score[i * width + j]!;
    if (i > 0 && j > 0 && here === score[(i - 1) * width + j - 1]! + pairScore(left[i - 1]!, right[j - 1]!)) {
      rows.push({ left: left[--i]!.index, right: right[--j]!.index });
    } else if (i > 0 && (j === 0 || here === score[(i - 1) * width + j]! + GAP)) {
      rows.push({ left: left[--i]!.index, right: null });
    } else {
      rows.push({ left: null, right: right[--j]!.index });
    }
  }
  return rows.reverse();
}

/** How the steps of `row` compare, looked up in each side's steps by index. */
export function rowState(
  row: AlignedRow,
  left: ReadonlyMap<number, AlignStep>,
  right: ReadonlyMap<number, AlignStep>,
): RowState {
  const a = row.left === null ? undefined : left.get(row.left);
  const b = row.right === null ? undefined : right.get(row.right);
  if (!a) return 'right-only';
  if (!b) return 'left-only';
  if (a.call !== b.call) return 'call';
  return a.result === b.result ? 'same' : 'result';
}

/** Where the two runs first part, for a person. */
export interface FirstDivergence {
  /** 0-based row. */
  readonly row: number;
  readonly state: Exclude<RowState, 'same'>;
  readonly text: string;
}

/** The first row whose steps differ, said in words; null when both runs took the same steps with the same results. */
export function firstDivergence(
  rows: readonly AlignedRow[],
  left: readonly AlignStep[],
  right: readonly AlignStep[],
): FirstDivergence | null {
  const a = new Map(left.map((s) => [s.index, s]));
  const b = new Map(right.map((s) => [s.index, s]));
  for (let row = 0; row < rows.length; row++) {
    const r = rows[row]!;
    const state = rowState(r, a, b);
    if (state === 'same') continue;
    const l = r.left === null ? undefined : a.get(r.left);
    const rt = r.right === null ? undefined : b.get(r.right);
    return { row, state, text: divergenceText(state, l, rt) };
  }
  return null;
}

const named = (s: AlignStep) => `step ${s.index} (${s.tool ?? 'no call'})`;

function divergenceText(state: Exclude<RowState, 'same'>, l: AlignStep | undefined, r: AlignStep | undefined): string {
  switch (state) {
    case 'left-only':
      return `Only the left run took ${named(l!)}; the right run has no step like it here.`;
    case 'right-only':
      return `Only the right run took ${named(r!)}; the left run has no step like it here.`;
    case 'call':
      return `The runs made different calls: left ${named(l!)}, right ${named(r!)}.`;
    case 'result':
      return `Both runs made the same call at ${l!.index === r!.index ? `step ${l!.index}` : `left step ${l!.index} and right step ${r!.index}`} (${l!.tool ?? 'no call'}), and it gave a different result: what the model saw next differs.`;
    default: {
      const never: never = state;
      throw new TypeError(`unknown row state ${String(never)}`);
    }
  }
}

/** JSON with object keys sorted, so two calls with the same arguments in another order compare equal. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The match ladder's contract, shared by ws_edit and ws_patch: find `oldStr` in a file's text,
 * walking rungs from exact to loosest, and stop at the first rung that finds any match — one
 * match is applied, two or more are ambiguous and never applied.
 */

/** Rung ids in ladder order. `quotes-dashes` comes from hash-anchored-tools.md. */
export type RungId = 'exact' | 'trailing-ws' | 'indent' | 'blank-lines' | 'quotes-dashes' | 'anchors';

export interface LadderOptions {
  /** false = byte-exact only (`edit_tolerance: false`). */
  readonly tolerance: boolean;
  /** Rungs switched off by settings. `exact` cannot be switched off. */
  readonly disabled: readonly RungId[];
  /** Restrict the search to lines [startLine, endLine] (1-based, inclusive), e.g. a ws_patch anchor window. */
  readonly window?: { readonly startLine: number; readonly endLine: number };
}

export interface MatchSpan {
  /** Character offsets into the file text: [start, end). */
  readonly start: number;
  readonly end: number;
  /** 1-based line numbers of the matched span. */
  readonly startLine: number;
  readonly endLine: number;
}

/** A kind of drift old_str can have, named after the rung that tolerates it. */
export type Drift = Exclude<RungId, 'exact'>;

/** One place a rung matched, with the replacement adapted to that place. */
export interface LadderCandidate {
  readonly span: MatchSpan;
  /** Every drift between old_str and this place that the match tolerated, in ladder order (none for exact). */
  readonly drifts: readonly Drift[];
  /** new_str adapted to this match (the file's line endings, its own indentation for the indent rung, …). */
  adapt(newStr: string): string;
}

export type LadderMatch =
  | {
      readonly kind: 'unique';
      readonly rung: RungId;
      readonly span: MatchSpan;
      /** Every drift the match tolerated, in ladder order (none for exact). */
      readonly drifts: readonly Drift[];
      /** new_str adapted to the match (e.g. the file's own indentation re-applied for the indent rung). */
      adapt(newStr: string): string;
    }
  | {
      readonly kind: 'ambiguous';
      readonly rung: RungId;
      readonly spans: readonly MatchSpan[];
      /** The same places with their adapters, in file order and never overlapping, for replace_all. */
      readonly candidates: readonly LadderCandidate[];
    }
  | { readonly kind: 'none'; readonly closest?: ClosestSpan };

export interface ClosestSpan {
  readonly startLine: number;
  readonly endLine: number;
  readonly text: string;
  /** 0..1 */
  readonly similarity: number;
}

/**
 * The timeline's search and filters as state: the query a person is typing and picking, the
 * steps that match it (step-filter.ts), and stepping that keeps to those steps while a query is
 * on — the keys then skip what the list hides.
 */
import type { Steppable } from './keys.ts';
import type { RunState } from './run-state.svelte.ts';
import { filterSteps, moveAmong, NO_QUERY, queryActive, type StepMatch, type StepQuery } from './step-filter.ts';

export class StepSearch implements Steppable {
  readonly #run: RunState;
  text = $state(NO_QUERY.text);
  tool = $state<StepQuery['tool']>(NO_QUERY.tool);
  kind = $state<StepQuery['kind']>(NO_QUERY.kind);

  readonly query: StepQuery = $derived({ text: this.text, tool: this.tool, kind: this.kind });
  readonly active: boolean = $derived(queryActive(this.query));
  readonly matches: readonly StepMatch[] = $derived(this.#match());
  /** The match of each step shown, by step index. */
  readonly byIndex: ReadonlyMap<number, StepMatch> = $derived(new Map(this.matches.map((m) => [m.index, m])));

  /** A query is on and the step on screen is not among its matches (there are none, or it has not moved yet). */
  readonly outside: boolean = $derived(this.#outside());

  constructor(run: RunState) {
    this.#run = run;
  }

  /** The step on screen is outside the query: select its first match, so the inspector never shows a step the list hides. */
  keepSelectionInside(): void {
    if (this.outside && this.matches.length) this.selectFirst();
  }

  clear(): void {
    [this.text, this.tool, this.kind] = [NO_QUERY.text, NO_QUERY.tool, NO_QUERY.kind];
  }

  move(delta: number): void {
    if (!this.active) return this.#run.move(delta);
    this.#go(moveAmong(this.#indices(), this.#run.selectedIndex, delta));
  }

  selectFirst(): void {
    if (!this.active) return this.#run.selectFirst();
    this.#go(this.matches[0]?.index ?? null);
  }

  selectLast(): void {
    if (!this.active) return this.#run.selectLast();
    this.#go(this.matches.at(-1)?.index ?? null);
  }

  #match(): StepMatch[] {
    return filterSteps(this.#run.records, this.query);
  }

  #outside(): boolean {
    const selected = this.#run.selectedIndex;
    return this.active && selected !== null && !this.byIndex.has(selected);
  }

  #indices(): number[] {
    return this.matches.map((m) => m.index);
  }

  #go(index: number | null): void {
    if (index !== null) this.#run.select(index);
  }
}

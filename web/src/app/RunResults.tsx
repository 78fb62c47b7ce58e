// Under the charts: the run's summary (or, in compare mode, both runs'
// table), the open reproduction's paper-against-measured table, and the
// glossary's words for the charts.

import { CompareTable } from '../compare/CompareTable';
import { SummaryPanel } from '../controls/SummaryPanel';
import type { EngineClient, RunSnapshot } from '../engine/client';
import { Term } from '../glossary/Term';
import { ReproductionResults } from '../reproduce/ReproductionResults';
import type { Reproduction } from '../reproduce/reproductions';
import type { Scenario } from '../scenario/types';

interface RunResultsProps {
  engine: EngineClient;
  names: readonly [string, string | null];
  snapshots: readonly [RunSnapshot | null, RunSnapshot | null];
  measureFromS: number;
  reproduction: Reproduction | null;
  /** The scenario of the run shown (the summary adds host shares for a scheme that isolates hosts). */
  scenario: Scenario;
}

/** `names[1]` and `snapshots[1]`: the compare partner's, when comparing. */
export function RunResults({ engine, names, snapshots, measureFromS, reproduction, scenario }: RunResultsProps) {
  const [run, partner] = snapshots;
  const comparing = names[1] !== null;
  return (
    <>
      {comparing ? (
        <CompareTable nameA={names[0]} nameB={names[1]!} summaryA={run?.summary} summaryB={partner?.summary} measureFromS={measureFromS} />
      ) : (
        <SummaryPanel summary={run?.summary} measureFromS={measureFromS} scenario={scenario} />
      )}
      {reproduction && <ReproductionResults engine={engine} reproduction={reproduction} />}
      <p className="glossary-hint">
        Words on the charts: <Term id="offered-load">offered load</Term>, <Term id="markov-model">Markov model</Term>,{' '}
        <Term id="mathis-padhye">Mathis/Padhye</Term>, <Term id="ecn">ECN marks</Term>, <Term id="fair-share">fair share</Term>. Tap a word for its meaning, or
        open the glossary from the top of the page.
      </p>
    </>
  );
}

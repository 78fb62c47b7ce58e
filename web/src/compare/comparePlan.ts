// Compare mode's plan for the experiment on screen: the partner runs the same
// scenario and seed with one thing replaced, from the same t = 0, in lockstep
// with the first run: the queue scheme (its catalogue defaults, the same
// buffer) or the TCP flavour of every TCP group (the same queue).

import { ccLabel, flavourName, tcpFlavours, withFlavour } from '../scenario/flavours';
import type { CatalogueEntry, ResolvedPlan, Scenario, ScenarioProblem } from '../scenario/types';
import type { Comparison } from '../scenario/view';

/** What the engine says of the scenario on screen under each flavour (useFlavourChecks). */
export interface FlavourChecks {
  /** The scenario text these checks were made for. */
  scenarioJson: string;
  /** The engine's plan of the scenario as it is (which flavour each TCP group runs); null if it refuses it. */
  main: ResolvedPlan | null;
  /** Per flavour asked about: null when the scenario can run with it, else the engine's problem, naming the field. */
  problems: ReadonlyMap<string, ScenarioProblem | null>;
}

export interface ComparedPartner {
  /** What varies, and the partner's value of it. */
  by: 'scheme' | 'cc';
  id: string;
  /** The partner run's name on the charts, the table and the exports: its scheme or its flavour. */
  name: string;
  /** The first run's name in the same terms. */
  mainName: string;
}

export interface ComparePlan {
  /** The partner, when compare mode can run. */
  partner: ComparedPartner | undefined;
  /** The partner's scenario text, or null when not comparing. */
  partnerJson: string | null;
  /** Runs of one group advance together; undefined when not comparing. */
  lockstepGroup: string | undefined;
  /** A partner was asked for but the catalogue or the flavour checks are not here yet: the first run waits, so both start together. */
  waiting: boolean;
  /** Why the asked-for partner cannot run, for a notice. */
  refused: string | null;
}

const NOT_COMPARING: ComparePlan = { partner: undefined, partnerJson: null, lockstepGroup: undefined, waiting: false, refused: null };

/** The engine's refusal of `cc` for this scenario, as the page says it. */
export function flavourRefusal(cc: string, problem: ScenarioProblem): string {
  return `${ccLabel(cc)} cannot run this scenario: ${problem.path ? `${problem.path}: ` : ''}${problem.message}`;
}

function schemePartner(scheme: string, scenario: Scenario, catalogue: readonly CatalogueEntry[] | undefined): Omit<ComparePlan, 'lockstepGroup'> {
  if (!catalogue) return { ...NOT_COMPARING, waiting: true };
  const entry = catalogue.find((s) => s.id === scheme);
  if (!entry || entry.id === scenario.queue.scheme) {
    const refused = entry
      ? `This link compares ${entry.name} with itself; showing it without compare mode.`
      : `This link compares with “${scheme}”, which is not a queue scheme here; showing the experiment without compare mode.`;
    return { ...NOT_COMPARING, refused };
  }
  const mainName = catalogue.find((s) => s.id === scenario.queue.scheme)?.name ?? scenario.queue.scheme;
  return {
    partner: { by: 'scheme', id: entry.id, name: entry.name, mainName },
    partnerJson: JSON.stringify({ ...scenario, queue: { scheme: entry.id } }),
    waiting: false,
    refused: null,
  };
}

function flavourPartner(cc: string, scenario: Scenario, checks: FlavourChecks | undefined): Omit<ComparePlan, 'lockstepGroup'> {
  const problem = checks?.problems.get(cc);
  if (!checks || !checks.main || problem === undefined) return { ...NOT_COMPARING, waiting: checks === undefined || problem === undefined };
  const stop = (why: string) => ({
    ...NOT_COMPARING,
    refused: `Compare by TCP flavour (compare_cc = ${cc}): ${why}; showing the experiment without compare mode.`,
  });
  const flavours = tcpFlavours(checks.main);
  const tcpGroups = checks.main.groups.filter((group) => group.kind === 'tcp').length;
  if (flavours.length === 0) return stop('this scenario has no TCP group');
  if (problem) return stop(flavourRefusal(cc, problem));
  if (flavours.every((f) => f === cc)) return stop(`every TCP group already runs ${ccLabel(cc)}`);
  return {
    // With several TCP groups, "all BBR" says the partner is not one group switched.
    partner: { by: 'cc', id: cc, name: `${tcpGroups > 1 ? 'all ' : ''}${ccLabel(cc)}`, mainName: flavourName(checks.main) },
    partnerJson: JSON.stringify(withFlavour(scenario, cc)),
    waiting: false,
    refused: null,
  };
}

export function comparePlan(
  compare: Comparison | null,
  scenario: Scenario,
  loadId: number | undefined,
  catalogue: readonly CatalogueEntry[] | undefined,
  checks: FlavourChecks | undefined,
): ComparePlan {
  if (compare === null) return NOT_COMPARING;
  if (compare.by === 'refused')
    return { ...NOT_COMPARING, refused: `This link’s ${compare.field} is refused: ${compare.reason}; showing the experiment without compare mode.` };
  const planned = compare.by === 'scheme' ? schemePartner(compare.scheme, scenario, catalogue) : flavourPartner(compare.cc, scenario, checks);
  const comparing = loadId !== undefined && planned.partner !== undefined;
  return comparing ? { ...planned, lockstepGroup: `compare-${loadId}` } : { ...planned, partner: undefined, partnerJson: null, lockstepGroup: undefined };
}

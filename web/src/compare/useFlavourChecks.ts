// Asks the engine, for the scenario on screen, whether it can run under each
// TCP flavour (and under a flavour a link names): compare mode offers every
// flavour and says, from the engine's own refusal, why one cannot run.

import { useEffect, useState } from 'react';
import { EngineRefusal, type EngineClient } from '../engine/client';
import { CC_CHOICES, withFlavour } from '../scenario/flavours';
import type { Scenario, ScenarioProblem } from '../scenario/types';
import type { FlavourChecks } from './comparePlan';

function problemOf(error: unknown): ScenarioProblem {
  if (error instanceof EngineRefusal && error.problem) return error.problem;
  return { path: '', message: error instanceof Error ? error.message : String(error), kind: 'engine' };
}

/** The checks of `scenario` (undefined until they are in, or without a scenario); `asked` is a flavour a link names. */
export function useFlavourChecks(engine: EngineClient, scenario: Scenario | undefined, asked: string | null): FlavourChecks | undefined {
  const scenarioJson = scenario ? JSON.stringify(scenario) : null;
  const [checks, setChecks] = useState<FlavourChecks>();
  useEffect(() => {
    if (scenarioJson === null) return;
    let current = true;
    const document = JSON.parse(scenarioJson) as Scenario;
    const flavours = [...new Set([...CC_CHOICES.map((choice) => choice.value as string), ...(asked === null ? [] : [asked])])];
    const main = engine.planScenario(scenarioJson).catch(() => null);
    const problems = flavours.map((cc) => engine.planScenario(JSON.stringify(withFlavour(document, cc))).then(() => null, problemOf));
    void Promise.all([main, ...problems]).then(([plan, ...found]) => {
      if (current) setChecks({ scenarioJson, main: plan, problems: new Map(flavours.map((cc, i) => [cc, found[i] as ScenarioProblem | null])) });
    });
    return () => {
      current = false;
    };
  }, [engine, scenarioJson, asked]);
  return checks?.scenarioJson === scenarioJson ? checks : undefined;
}

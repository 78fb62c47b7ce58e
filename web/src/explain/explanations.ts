// Classroom explainers per scheme, keyed by catalogue id: one file per
// scheme in schemes/, named by its id (the types are in explainer.ts).

import type { Explainer } from './explainer';
import { droptail } from './schemes/droptail';
import { red } from './schemes/red';
import { ared } from './schemes/ared';
import { nlred } from './schemes/nlred';
import { dsred } from './schemes/dsred';
import { rem } from './schemes/rem';
import { fred } from './schemes/fred';
import { sfred } from './schemes/sfred';
import { choke } from './schemes/choke';
import { drr } from './schemes/drr';
import { bare } from './schemes/bare';
import { afpft } from './schemes/afpft';
import { csfq } from './schemes/csfq';
import { rqrd } from './schemes/rqrd';
import { codel } from './schemes/codel';
import { pie } from './schemes/pie';
import { dualpi2 } from './schemes/dualpi2';
import { fqCodel } from './schemes/fq_codel';
import { blue } from './schemes/blue';
import { fqPie } from './schemes/fq_pie';
import { cobalt } from './schemes/cobalt';
import { fqCobalt } from './schemes/fq_cobalt';
import { cake } from './schemes/cake';

export type { Explainer, TryThis } from './explainer';

export const EXPLANATIONS: Record<string, Explainer> = {
  droptail,
  red,
  ared,
  nlred,
  dsred,
  rem,
  fred,
  sfred,
  choke,
  drr,
  bare,
  afpft,
  csfq,
  rqrd,
  codel,
  pie,
  dualpi2,
  fq_codel: fqCodel,
  blue,
  fq_pie: fqPie,
  cobalt,
  fq_cobalt: fqCobalt,
  cake,
};

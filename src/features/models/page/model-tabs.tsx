/**
 * The model page's tabs that a room provides whole: given the model and the version shown
 * (`ModelTabProps`), the room draws its view. A new room's tab plugs in with one entry here, its
 * id and label in `MODEL_TABS` (nav/nav.ts), and its component exported by the room's index.
 * Overview, Predict and What-if are drawn by ModelPage itself: they share its predict form.
 */
import type { ReactNode } from 'react';
import { DescribeTab } from '../describe';
import { EvaluationTab } from '../evaluation';
import { DiffTab, DriftTab, EffectsTab } from '../monitoring';
import type { ModelTab, ModelTabProps } from '../shared';

export const ROOM_TABS: Partial<Record<ModelTab, (props: ModelTabProps) => ReactNode>> = {
  describe: (p) => <DescribeTab {...p} />,
  evaluation: (p) => <EvaluationTab {...p} />,
  drift: (p) => <DriftTab {...p} />,
  effects: (p) => <EffectsTab {...p} />,
  diff: (p) => <DiffTab {...p} />,
};

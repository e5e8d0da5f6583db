// Input columns: every column but the target is profiled (type inference on the rows with a
// target) and either kept as an input or reported as ignored / identifier / empty / constant in
// DESCRIBE ... features.

import type { FeatureInfo, ResolvedSettings } from '../api';
import { type ColumnProfile, inferColumnType } from '../data/column-types';
import { type Table, cellsAt } from '../data/table';
import { AutoMLError } from '../errors';
import { targetEncoderName } from './describe';
import { type TargetInfo, inferenceSample } from './target';

export interface Inputs {
  /** One entry per column of the data, in data order; input encoders are filled in later. */
  features: FeatureInfo[];
  profiles: ColumnProfile[];
  /** Cells of each input column at the target's kept rows. */
  columns: ArrayLike<unknown>[];
}

export function profileInputs(
  data: Table,
  ti: TargetInfo,
  target: string,
  settings: ResolvedSettings,
): Inputs {
  for (const c of settings.ignoreColumns) {
    if (c === target) throw new AutoMLError(`cannot ignore the target column '${target}'`);
    if (!data.columns.includes(c)) {
      throw new AutoMLError(
        `ignore_columns names '${c}', which is not in the data; columns are: ${data.columns.join(', ')}`,
      );
    }
  }
  const ignored = new Set(settings.ignoreColumns);
  const nClasses = ti.classKeys ? ti.classKeys.length : 0;

  // Profile every column (also dropped ones, for DESCRIBE ... features).
  const features: FeatureInfo[] = [];
  const profiles: ColumnProfile[] = [];
  const columns: ArrayLike<unknown>[] = [];
  const dropped: string[] = [];
  data.columns.forEach((name, j) => {
    if (name === target) {
      features.push({
        column: name,
        type: ti.profile.type,
        encoder: targetEncoderName(ti.task, nClasses),
        role: 'target',
      });
      return;
    }
    const col = cellsAt(data.data[j], ti.keep);
    const p = inferColumnType(name, inferenceSample(col, settings.seed));
    if (ignored.has(name)) {
      features.push({ column: name, type: p.type, encoder: 'none', role: 'ignored' });
    } else if (p.type === 'identifier') {
      features.push({ column: name, type: 'identifier', encoder: 'none', role: 'identifier' });
      dropped.push(`${name} (identifier: ${p.reason})`);
    } else if (p.type === 'empty' || p.constant) {
      features.push({ column: name, type: p.type, encoder: 'none', role: 'ignored' });
      dropped.push(`${name} (${p.type === 'empty' ? 'no values' : 'constant'})`);
    } else {
      features.push({ column: name, type: p.type, encoder: '', role: 'input' });
      profiles.push(p);
      columns.push(col);
    }
  });
  if (profiles.length === 0) {
    throw new AutoMLError(
      `no usable input columns to predict '${target}' from` +
        (dropped.length ? `; dropped: ${dropped.join(', ')}` : '') +
        (ignored.size ? `; ignored: ${[...ignored].join(', ')}` : ''),
    );
  }
  return { features, profiles, columns };
}

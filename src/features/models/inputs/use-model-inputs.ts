/**
 * Everything the predict form and the what-if sweep need to know about a model's inputs: the
 * info row and features (describe), plus known values and ranges from its training data.
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { describeQueryOptions, type ModelVersion, trainingStatsQueryOptions } from '../api';
import { buildFormFields, fieldKind, type FormField } from './predict-form';

export interface ModelInputs {
  fields: FormField[];
  target: string | undefined;
  targetType: string | undefined;
  isClassifier: boolean;
  ranges: Record<string, [number, number]>;
  example: Record<string, unknown> | null;
  loading: boolean;
  error: Error | null;
  /** Known values and ranges are still loading (the fields work without them). */
  statsLoading: boolean;
}

/**
 * `active` is the version shown (the active one, or the one chosen); `version` is set when a
 * version is pinned (the describe requests name it: `m.2`).
 */
export function useModelInputs(
  project: string,
  model: string,
  active: ModelVersion | undefined,
  version?: number,
): ModelInputs {
  const ready = active?.status === 'complete';
  const info = useQuery(
    describeQueryOptions(project, model, 'info', {
      enabled: ready,
      version,
      activeVersion: active?.version,
    }),
  );
  const features = useQuery(
    describeQueryOptions(project, model, 'features', {
      enabled: ready,
      version,
      activeVersion: active?.version,
    }),
  );
  const inputNames = info.data?.[0]?.inputs;
  const columns = useMemo(() => {
    const byName = new Map((features.data ?? []).map((f) => [f.column, f.type]));
    return (inputNames ?? []).map((name) => ({
      name,
      kind: fieldKind(byName.get(name) ?? 'text'),
    }));
  }, [features.data, inputNames]);
  const stats = useQuery(
    trainingStatsQueryOptions(project, model, ready ? active?.selectDataQuery : null, columns),
  );
  const fields = useMemo(
    () =>
      buildFormFields(features.data, inputNames, {
        options: stats.data?.options,
        importances: info.data?.[0]?.column_importances,
      }),
    [features.data, inputNames, stats.data, info.data],
  );
  const target = info.data?.[0]?.outputs[0] ?? active?.predict ?? undefined;
  const targetType = features.data?.find((f) => f.column === target)?.type;
  return {
    fields,
    target,
    targetType,
    isClassifier: !!targetType && fieldKind(targetType) === 'choice',
    ranges: stats.data?.ranges ?? {},
    example: stats.data?.example ?? null,
    loading: info.isPending || features.isPending,
    error: info.error ?? features.error ?? null,
    statsLoading: stats.isFetching,
  };
}
